//! SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout`, a batch scheduler) and SIGHUP (the terminal
//! closed) in the long commands (`simulate`, `compare`, `match`, `perft`): the first one stops
//! the work (the games finished are kept, a game in progress is dropped, a search stops at
//! once), the partial result is printed marked partial, and the exit code says which signal
//! stopped it: 128 + its number (130 SIGINT, 143 SIGTERM, 129 SIGHUP). A second signal ends
//! the program at once, with the code of that signal.
//!
//! The handler only stores into atomics (what a signal handler may do): the signal's number,
//! and the process-wide stop request of [`ludic::interrupt`] that the searches read.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::flag;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Exit code of a command stopped by SIGINT (Ctrl-C), its partial result printed.
pub const INTERRUPTED: u8 = 130;

/// The number of the first signal caught (0: none).
static SIGNAL: AtomicUsize = AtomicUsize::new(0);
/// A signal was caught: the next one ends the program at once.
static CAUGHT: AtomicBool = AtomicBool::new(false);

/// Catches SIGINT, SIGTERM and SIGHUP from now on (once for the program). A signal that
/// comes before this kills the program as the system does by default. SIGHUP, when the
/// program was started with it ignored (`nohup`), stays ignored: it is meant to run on. SIGINT
/// is caught even when ignored at the start (as a shell starts a command in the background
/// without job control): a script's `kill -INT` and a Ctrl-C meant for it stop it as they
/// would in the foreground, with the partial result.
pub(crate) fn catch_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let ignored = ignored_at_start();
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            if sig == SIGHUP && ignored & (1 << (sig - 1)) != 0 {
                continue;
            }
            // The first action registered installs the handler: it records the signal, so
            // that one that comes while the others are registered is not lost (the trials of
            // tests/signals.rs lost some sent in a run's first milliseconds when the exit at
            // a second signal came first). That exit comes before the flag that arms it.
            let _ = flag::register_usize(sig, &SIGNAL, sig as usize);
            let _ = flag::register(sig, ludic::interrupt::flag());
            let _ = flag::register_conditional_shutdown(sig, 128 + sig, &CAUGHT);
            let _ = flag::register(sig, &CAUGHT);
        }
        // a signal that came between the registrations has set the first flags only
        if interrupted() {
            ludic::interrupt::request();
            CAUGHT.store(true, Ordering::SeqCst);
        }
    });
}

/// The signals ignored when the program started (bit `n - 1` for signal `n`), from the
/// `SigIgn` line of /proc/self/status (none where there is no such file).
fn ignored_at_start() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("SigIgn:"))
                .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        })
        .unwrap_or(0)
}

/// At the end of a command whose result is complete: says on standard error when a signal
/// came anyway (after the work was done; the exit code is 0, the result complete).
pub(crate) fn note_late_signal() {
    if interrupted() {
        to_stderr!(
            "({} came after the work was done: the result printed is complete)",
            signal_name()
        );
    }
}

/// Whether a signal asked the command to stop.
pub(crate) fn interrupted() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// The exit code of a command stopped by the signal caught: 128 + its number (130 when none
/// was caught).
pub(crate) fn exit_code() -> u8 {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => INTERRUPTED,
        s => u8::try_from(128 + s).unwrap_or(INTERRUPTED),
    }
}

/// The signal caught, in words: `Ctrl-C (SIGINT)`, `SIGTERM`, `SIGHUP`.
pub(crate) fn signal_name() -> &'static str {
    let s = SIGNAL.load(Ordering::SeqCst);
    if s == SIGINT as usize {
        "Ctrl-C (SIGINT)"
    } else if s == SIGTERM as usize {
        "SIGTERM"
    } else if s == SIGHUP as usize {
        "SIGHUP"
    } else {
        "a signal"
    }
}

/// Asks the games of `ctl` to stop when a signal has come, saying so once (see
/// [`stopping_message`]); true when this call is the one that asked.
pub(crate) fn stop_on_signal(ctl: &ludic::study::Control, agents: bool) -> bool {
    if interrupted() && !ctl.stop.swap(true, Ordering::Relaxed) {
        stopping_message(agents);
        return true;
    }
    false
}

/// Says on standard error, once for the program, that a signal stops the games: those in
/// progress are dropped when agents play them (their searches stop at once), finished when
/// they are random playouts (a matter of microseconds).
pub(crate) fn stopping_message(agents: bool) {
    static TOLD: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if TOLD.swap(true, Ordering::Relaxed) {
        return;
    }
    to_stderr!(
        "stopping on {}: {}the games finished are kept (again: quit at once)",
        signal_name(),
        if agents {
            "the games in progress are dropped, "
        } else {
            ""
        }
    );
}

/// The games dropped when a signal stopped them, in words (empty when none was).
pub(crate) fn dropped_text(dropped: u64) -> String {
    match dropped {
        0 => String::new(),
        1 => "; 1 game in progress was dropped".into(),
        n => format!("; {n} games in progress were dropped"),
    }
}
