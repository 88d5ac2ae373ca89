// The built-in games: every `.game` file of this folder, embedded in the binary by
// src/builtin.rs (`include!`), so that `ludic play NAME` works anywhere. A new game file is
// added here with its name.
&[
    ("pallankuzhi", include_str!("pallankuzhi.game")),
    ("ceelkoqyuqkoqiji", include_str!("ceelkoqyuqkoqiji.game")),
    ("puluc", include_str!("puluc.game")),
    ("kuilichi-chanakua", include_str!("kuilichi-chanakua.game")),
    ("tuknanavuhpi", include_str!("tuknanavuhpi.game")),
    ("tic-tac-toe", include_str!("tic-tac-toe.game")),
    ("connect-four", include_str!("connect-four.game")),
    ("hex", include_str!("hex.game")),
    ("amazons", include_str!("amazons.game")),
    ("go", include_str!("go.game")),
    ("backgammon", include_str!("backgammon.game")),
    ("chess", include_str!("chess.game")),
]
