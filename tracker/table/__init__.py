"""The shared table: the GM's process as the one authority players and viewers reach through a Unix socket.

Players' programs never read the encounter file (it is the GM's, mode 0600) and never write it. The GM's
`tracker run` listens on a socket beside the file (`address`); the kernel says which account each
connection comes from (SO_PEERCRED), and `[seats]` says which characters that account plays. Each
connection receives only its projection (`projection`): the player view, plus, for a seated account, its
own characters' sheets, hands, map and odds; a command it sends is judged against the live state in the
GM's process, then applied, saved and logged like the GM's own (`server`). `client` is the other end,
used by `tracker view --player` from another account and by `tracker play`.
"""
