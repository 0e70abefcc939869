# inarow's words for players, in English: the messages every other
# language translates (locales/LANG/inarow.ftl has the same ids and uses
# the same { $arguments }).

## The games and the stones

game-connect4 = Connect Four
game-gomoku = Gomoku
game-renju = Renju

colour-red = Red
colour-green = Green
colour-yellow = Yellow
colour-blue = Blue

# A player with no name of their own: the first, the second.
player-numbered = Player { $number }
# A player at a table: their name and stone colour.
player-named = { $name } ({ $colour })
# The computer at a table: its level and stone colour.
player-computer = Computer ({ $level }, { $colour })
player-computer-name = Computer ({ $level })

## The lobby's game menu

lobby-welcome = Welcome to inarow: Connect Four, Gomoku and Renju, against people or the computer.
lobby-choose-game = Choose a game:
lobby-connect4-detail = { $width }x{ $height }, four in a line, stones drop
lobby-gomoku-detail = { $width }x{ $height }, five in a row
lobby-gomoku-exact-detail = { $width }x{ $height }, exactly five in a row
lobby-renju-detail = { $width }x{ $height }, five; first to move: no 3x3, 4x4, six
lobby-quick-match = Quick match
lobby-quick-match-detail = the next person who wants this game
lobby-computer = Play the computer
lobby-computer-detail = choose a level
lobby-invite = Invite a friend
lobby-invite-detail = get a room code to give them
lobby-rated-invite = Rated invite
lobby-rated-invite-detail = for two players with keys
lobby-back = Back
lobby-back-detail = other games
lobby-quit = Quit

## How a game ended

end-line = { $player } wins with { $points }
end-full = Draw: the board is full
end-resigned = { $loser } resigned: { $winner } wins
end-agreed = Draw by agreement
end-flag = { $loser } ran out of time: { $winner } wins

## Help (? or F1): keys named in words, then what each key does

help-title = Help
help-any-key = Press any key to go back.
help-key-menu = arrows, Enter
help-key-bracket = [key]
help-key-click = click
help-key-esc-q = Esc or q
help-key-up-down = up, down
help-key-left-right = left, right
help-key-arrows = arrows
help-key-typed-point = h8 or 8,h
help-key-puzzle-column = 1-7, arrows
help-key-puzzle-point = h8, arrows
help-key-the-line = the line
help-key-after-game = after a game
help-key-help = ? or F1
help-menu = move through a menu and choose
help-bracket = the key in brackets chooses that entry
help-esc-back = back one step (clears a field)
help-lobby-join = join a friend: type their room code
help-lobby-stones = stones as emoji or as letters
help-lobby-profile = your profile: ratings, games, replays, keys
help-lobby-leaderboard = the leaderboard of each game
help-lobby-watch = watch a game in play
help-lobby-online = who is online: invite someone to a game
help-lobby-puzzles = puzzles from real games (rated)
help-lobby-language = language: English, Deutsch, 繁體中文
help-click-menu = choose an entry with the mouse
help-waiting-stop = stop waiting, back to the lobby
help-records-choose = choose a game or a key; scroll
help-records-replay = replay the chosen game
help-records-step = replay: one move; leaderboard: other game
help-records-ends = replay: first and last move
help-records-keys = profile: your keys and link codes
help-records-key-actions = keys: remove the chosen key; a link code
help-back = back
help-puzzle-column = Connect Four: a column, Enter drops
help-puzzle-point = Gomoku: type a point or move, Enter
help-puzzle-line = play on: the host answers each move
help-puzzle-next = after a puzzle: the next one, the daily
help-puzzle-solution = after a puzzle: show the solution
help-puzzle-back = back to the lobby
help-game-column = move the stone over the columns
help-game-drop = drop it
help-game-typed-column = choose that column, then Enter
help-game-cursor = move the cursor
help-game-place = place a stone
help-game-typed-point = type a point (column, row), then Enter
help-game-click = play where you click
help-game-resign = resign (asks first)
help-game-undo = take back your last move
help-game-draw = offer a draw or accept an offer; decline
help-game-takeback = ask to take back your move (casual)
help-game-swap2 = swap2 opening: choose as shown
help-game-claim = claim the win (no clock, opponent idle)
help-game-chat = chat: Enter sends, Esc closes; /mute
help-game-leave = leave the game (asks first: you lose it)
help-game-after-remote = r rematch, l lobby, q quit
help-game-quit = quit (asks first)
help-game-after-local = r play again, m menu, q quit
help-this = this help
help-redraw = redraw the screen
help-quit-now = quit at once

## The rules in a few words (help, the game screen)

rules-connect4 = Connect Four, { $width }x{ $height }: take turns dropping a stone into a column; it falls to the lowest free cell. Four stones in a line (across, up and down, or diagonal) win; a full board is a draw.
rules-gomoku = Gomoku, { $width }x{ $height }: take turns placing a stone on a free point. Five stones in a row (across, up and down, or diagonal) win; so do six or more. A full board is a draw.
rules-gomoku-exact = Gomoku, { $width }x{ $height }: take turns placing a stone on a free point. Five stones in a row (across, up and down, or diagonal) win; six or more in a row do not count. A full board is a draw.
rules-renju = Renju, { $width }x{ $height }: take turns placing a stone on a free point. Five in a row wins. The first player ("black" in the rules, whatever the colour) may not make two threes or two fours at once, nor six or more in a row (marked x on their turn); five wins even so. The second player may play anywhere and wins with five or more.

## The computer's levels

level-easy = easy
level-medium = medium
level-hard = hard
level-perfect = perfect
level-strong = strong
level-number = level { $number }
level-c4-easy = wins and blocks what it sees, else casual
level-c4-medium = looks a few moves ahead
level-c4-hard = nearly perfect, slips now and then
level-c4-perfect = never loses a won or drawn game
level-gomoku-1 = plays near the stones, misses fours
level-gomoku-2 = blocks now and then
level-gomoku-3 = blocks more often than not
level-gomoku-4 = blocks threats, plays what looks best
level-gomoku-5 = looks two moves ahead
level-gomoku-6 = looks three moves ahead
level-gomoku-7 = threat search, thinks briefly
level-gomoku-8 = threat search, hard to beat

## The game screen: title, players, status, the move field

title-rated = rated
title-watching = { $count } watching
title-round = round { $round }   score { $first } : { $second }
players-you = {" "}(you)
players-vs = vs
points-how-to-read = (x|y): column and row, counted from 0 at the bottom left
status-your-choice = { $name }: your choice (see above the board)
status-waiting-choice = Waiting for { $name } to choose...
status-places = { $name } places a { $colour } stone
status-to-move = { $player } to move
status-thinking = { $player } is thinking...
status-waiting = Waiting for { $player }...
status-last-move = last move { $point }
field-press-three = Press 1, 2 or 3
field-press-two = Press 1 or 2
field-move = Move:
field-hint-column = arrows + Enter, click, or { $keys }
field-hint-point = arrows + Enter, click, or a point: h8
field-next = Next move:
field-next-hint = Enter plays it on your turn
rematch-gone = { $names } has left the table
rematch-asked = Rematch asked: waiting for the other player...
rematch-wanted = { $names } wants a rematch: press r
confirm-leave-abort = Leave the game? It is aborted: not both players have moved. y/n
confirm-leave-lose = Leave the game? You will lose. y/n
confirm-leave = Leave the game? y/n
confirm-resign-for = Resign for { $player }? y/n
confirm-resign-abort = Resign? The game is aborted: not both players have moved. y/n
confirm-resign = Resign? You lose this game. y/n
resume-hint = Cut off? Log in as { $code } or type { $code } in the lobby
web-address = On the web: { $url }
verdict-win = You win!
verdict-lost = You lost.
verdict-draw = Draw.
verdict-rating = rating { $change }

## The key bar under the board (entries joined by three spaces)

keys-undo = u undo
keys-claim = w claim the win
keys-draw = = draw
keys-takeback = u take back
keys-chat = Tab chat
keys-help = ? help
keys-back-to-lobby = q back to the lobby
keys-leave = q leave
keys-resign = ! resign
keys-quit = q quit
after-keys-gone = [a] analysis   [l] back to the lobby   [q] quit
after-keys-remote = [r] rematch  [a] analysis  [l] lobby  [q] quit
after-keys-remote-undo = [r] rematch  [a] analysis  [u] undo  [l] lobby  [q] quit
after-keys-local = [r] play again  [a] analysis  [m] menu  [q] quit
after-keys-local-undo = [r] play again  [a] analysis  [u] undo  [m] menu  [q] quit

## Above the board: swap2, offers, an opponent away, a claim

swap2-chose = Swap2: { $name } chose to play { $colour }
swap2-place-three = Swap2: place three stones, { $first }, { $second }, { $first } (now { $next })
swap2-places-three = Swap2: { $name } places three opening stones
swap2-choose = Swap2: 1 play { $first }   2 play { $second } and place next   3 place two more
swap2-chooses = Swap2: { $name } chooses a colour, or to place two more
swap2-place-two = Swap2: place two more stones, { $second } then { $first } (now { $next })
swap2-places-two = Swap2: { $name } places two more stones
swap2-choose-again = Swap2: 1 play { $first } ({ $other } places next)   2 play { $second } and place next
swap2-chooses-again = Swap2: { $name } chooses a colour
opponent-away = { $name } lost the connection, waiting { $seconds } s...
claim-due = { $name } has not moved for a long while: w claims the win
declined-draw = { $name } declined the draw: play on
declined-takeback = { $name } refused the takeback: play on
offer-draw-to-me = { $name } offers a draw: = accept   - decline
offer-takeback-to-me = { $name } asks to take back a move: = allow   - refuse
offer-draw-watched = { $from } offers { $to } a draw
offer-takeback-watched = { $from } asks { $to } to take back a move
offer-draw-mine = You offered a draw: waiting for { $to }
offer-takeback-mine = You asked to take back a move: waiting for { $to }

## Messages on the game screen

not-your-turn = not your turn: { $player } is to move
forbidden-point = { $point } is forbidden for { $colour } (who moves first) in renju: a { $why }
forbidden-double-three = double three
forbidden-double-four = double four
forbidden-overline = overline
illegal-over = the game is over
illegal-column-full = column { $column } is full
illegal-occupied = { $point } is already taken
illegal-off-board = { $point } is off the board
illegal-not-landing = a stone dropped in column { $column } lands on { $lands }, not { $asked }
watching-keys = you are watching: q goes back to the lobby
you-stay = you stay in the game
you-play-on = you play on
nothing-to-take-back = nothing to take back
swap2-choose-with-three = choose with 1, 2 or 3 (see above the board)
swap2-choose-with-two = choose with 1 or 2 (see above the board)
minus-no-offer = - refuses an offer, and none is waiting for your answer
no-takebacks-rated = no takebacks in a rated game
you-left-no-rematch = you left this game: no rematch
opponent-left-no-rematch = your opponent has left: no rematch
key-does-nothing = '{ $key }' does nothing here: use a key shown below
claim-clock = w claims the win only in a game without a clock: here the clock decides
claim-computer = w claims the win from a person who stops moving: the computer always moves
claim-shared = w claims the win from a person who stops moving: not at a shared keyboard
claim-your-move = it is your move: w claims the win only while your opponent keeps you waiting
claim-early = you can claim the win only when your opponent has not moved for a while
game-moved-carried = your game moved to another host: your move goes with it

## Chat at a table

chat-muted-watchers = the other watchers' messages are hidden for the rest of this game (/unmute)
chat-muted-opponent = your opponent's messages are hidden for the rest of this game (/unmute)
chat-unmuted = messages are shown again
chat-commands = chat commands: /mute and /unmute
chat-say = Say:
chat-at-most = at most { $count } characters
chat-enter-sends = Enter sends, Esc closes
chat-title = Chat
chat-title-watchers = Watchers' chat
chat-muted-mark = (muted)
chat-tab-to-say = Tab to say something
pane-moves = Moves ({ $count })

## Why a game ended, in a replay's header and in the end line

reason-line = a line
reason-full = draw: the board is full
reason-resigned = resigned
reason-agreed = draw agreed
reason-flag = out of time
reason-stopped = stopped: { $reason }
why-left = left
why-disconnected = disconnected
why-lost-connection = lost the connection
why-idle = was idle too long
why-idle-for = stayed idle for { $seconds } s
why-shutdown = host shutting down
why-replaced = connected again elsewhere
why-resigned = resigned
why-computer-failed = the computer failed
end-forfeit = { $loser } { $why }: { $winner } wins by forfeit
end-aborted = Game aborted: { $reason }
end-aborted-early = { $player } { $why } before both players had moved

## Refusals: why the host will not do what was asked

refusal-no-such-level = the computer has no such level at { $game }: choose one from the list
refusal-invitations-per-minute = at most { $count } invitations a minute: wait a little
refusal-host-did-not-answer = { $host } did not answer: try again
refusal-room-host-did-not-answer = the host of the room { $code } did not answer: try again
refusal-game-did-not-start = { $host } did not answer: the game did not start
refusal-not-understood = a request this host does not understand
refusal-shutting-down = the host is shutting down
refusal-game-not-offered = that game is not offered here
refusal-player-left = that player has left
refusal-no-invitations = { $name } does not take invitations
refusal-playing = { $name } is playing: try later
refusal-watching = { $name } is watching a game: try later
refusal-hosting = { $name } is waiting for a friend: try later
refusal-invited-already = you have invited { $name } already: wait for the answer
refusal-too-many-invitations = at most { $count } invitations may wait at once: wait for answers
refusal-many-invitations-waiting = { $name } has many invitations waiting: try later
refusal-invitation-closed = that invitation is no longer open
refusal-no-longer-free = { $name } is no longer free to play
refusal-has-left = { $name } has left
refusal-friend-left = your friend has left
refusal-game-ended = that game has ended: choose another
refusal-private = that game is private: its players did not allow watchers
refusal-you-left = you have left
refusal-at-another-table = you are at another table
refusal-no-seat = that game has no seat for you
refusal-room-playing = the room { $code } is already playing: ask your friend for a new code
refusal-no-such-room = no room has the code { $code }: check it with your friend
refusal-cannot-run = the game kept in NATS is not one this host can run
refusal-game-moved = your game moved to another host: play your move again
refusal-host-not-answering = the host of your game is not answering: play again in a moment

## A table's answers

table-choose-side-first = choose a side first: 1, 2 or 3 (see above the board)
table-no-side-to-choose = there is no side to choose now
table-stones-placed = the stones are placed: choose the first or the second side
table-not-during-swap2 = not during the swap2 opening
table-computer-plays-on = the computer plays on
table-takeback-with-u = press u to take back a move against the computer
table-offer-waiting = your offer is waiting for an answer
table-answer-first = answer your opponent's offer first
table-no-move-to-take-back = you have no move to take back
table-opening-stays = the opening's stones are not taken back
table-offered-already = you made an offer at this move already: play on
table-no-offer = there is no offer to answer
table-undo-computer-only = moves are taken back only against the computer
table-game-over = this game is over
rules-in-a-line = { $count } in a line
rules-exactly = exactly { $count }

## The lobby's other entries, fields and lines

lobby-join = Join a friend
lobby-join-detail = type the room code they gave you
lobby-name = Change your name
lobby-colour = Your colour
lobby-profile = Your profile
lobby-profile-detail = ratings, games, replays
lobby-leaderboard = Leaderboard
lobby-watch = Watch a game
lobby-watch-detail = the games in play
lobby-online = Who is online
lobby-online-detail = invite someone to a game
lobby-stones = Stones
lobby-stones-detail = emoji or letters
lobby-stones-now = now { $theme }
lobby-puzzles = Puzzles
lobby-puzzles-detail = positions from real games
lobby-language = Language
lobby-language-detail = English, Deutsch, 繁體中文
lobby-waiting-here = { $count } waiting for a match
first-who = Who moves first
first-random = either of you, drawn at random
first-you = you
first-computer = the computer
levels-question = { $game } against the computer: how strong?
colour-question = Your colour, when your opponent has not taken it:
colour-any = No preference
colour-any-detail = a colour is drawn for each game
name-question = What should people call you?
name-field = Name:
name-enter-keeps = Enter keeps { $name }
join-question = Your friend's room code:
join-field = Code:
join-type-code = type the room code your friend gave you
not-a-choice = '{ $key }' is not one of the choices: press a key in brackets
field-keys = Enter accepts, Esc back, Ctrl-C quits
menu-keys = arrows + Enter, or the key in brackets; Esc back; ? help
header-you-are = you are { $name }
header-counts = { $online } online, { $playing } playing
header-waiting = { $count } waiting for { $game }
header-degraded = some features are unavailable: the other hosts cannot be reached just now
header-daily = Puzzle of the day: { $puzzle }

## Waiting for a quick match

seek-looking = Looking for another { $game } player... { $seconds }s
seek-offer-computer = Nobody has come yet. Play the computer meanwhile?
seek-keep-waiting = Keep waiting
seek-esc = Esc stops looking
seek-nearest = { $count ->
    [one] 1 other player waiting, rating { $rating }:
   *[other] { $count } other players waiting, the nearest rating { $rating }:
}
seek-pairing-reach = pairing when the window reaches ±{ $window } (in { $seconds } s).
seek-pairing-reach-now = pairing when the window reaches ±{ $window } (any moment now).
seek-pairing-anyone = pairing when the window opens to anyone (in { $seconds } s).
seek-pairing-anyone-now = pairing when the window opens to anyone (any moment now).
seek-others-far = { $count ->
    [one] 1 other player waits, with a rating too far from yours for now:
   *[other] { $count } other players wait, with a rating too far from yours for now:
}
seek-widening = pairing within ±{ $window } now, widening to anyone in { $seconds } s.
seek-next-person = You are paired with the next person who asks for this game.

## A room for a friend

room-title = A { $game } room for you and a friend
room-code = Room code:
room-how-to-join = Your friend chooses "{ $join }" in the lobby and types it,
room-or-connect = or connects with: { $command }
room-watchers-on = Watchers: others may watch your game (w: keep it private)
room-watchers-off = Watchers: your game is private (w: let others watch it)
room-clock = Clock:    { $clock } (c: change)
room-opening = Opening:  { $opening } (o: change)
room-waiting = Waiting for your friend...
room-opening-room = Opening a room...
room-esc = Esc closes the room
clock-none = no clock
opening-standard = standard (the first player moves first)
opening-swap2 = swap2 (three stones placed, then a choice of side)

## The games in play

games-asking = Games in play: asking the lobby...
games-none = Games in play: none just now
games-to-watch = Games in play: { $count } to watch
games-game = game
games-players = players
games-moves = moves
games-watching = watching
games-keys = arrows choose, Enter watches, r refreshes, Esc back; ? help

## Who is online, invitations

people-asking = Who is online: asking the lobby...
people-title = Who is online: { $count }
people-counts = { $lobby } in the lobby, { $seeking } seeking, { $playing } playing, { $watching } watching
people-name = name
people-short-connect4 = C4
people-short-gomoku = Gomoku
people-short-renju = Renju
people-doing = doing
people-that-is-you = that is you: choose someone else
people-rated-who = rated games are for two players with keys, on the standard board
people-swap2-games = swap2 is for Gomoku and Renju
people-how = arrows choose a person, Enter invites them
people-keys-on = Enter invites, i invitations (on), r refreshes, Esc back
people-keys-off = Enter invites, i invitations (off), r refreshes, Esc back
doing-lobby = in the lobby
doing-seeking = seeking { $game }
doing-hosting = waiting for a friend
doing-playing = playing
doing-watching = watching
doing-on-host = on { $host }
doing-no-invitations = no invitations
invite-title = Invite { $name } to a game
invite-game = [g] Game:   { $value }
invite-rated-field = [r] Rated:  { $value }
invite-clock = [c] Clock:  { $value }
invite-opening = [o] Opening: { $value }
invite-casual-only = casual (rated: two players with keys, standard board)
invite-rated = rated
invite-casual = casual
invite-wait = They have { $seconds } seconds to answer.
invite-keys = Enter sends the invitation, Esc goes back
invitation-title = An invitation
invitation-from = { $name } invites you to a game:
invitation-swap2 = swap2 opening
invitation-keys = [y] accept   [n] decline
invitation-more = { $count ->
    [one] 1 more invitation after this one
   *[other] { $count } more invitations after this one
}
invitation-lapses = It lapses if not answered within { $seconds } seconds.

## inarow play: the new-game questions

setup-title = k in a row
setup-new-game = New game
setup-which-game = Which game?
setup-who-plays = Who plays?
setup-how-strong = How strong should the computer play?
setup-your-name = What is your name?
setup-player-name = What is player { $number }'s name?
setup-pick-colour = { $name }, pick a colour:
setup-who-starts = Who starts?
setup-vs-computer = Against the computer
setup-two-players = Two players
setup-two-players-detail = on this keyboard
setup-the-computer = The computer
setup-vs-computer-level = against the computer ({ $level })
setup-vs-computer-short = against the computer
setup-two-players-short = two players
setup-name-taken = { $name } is taken: choose another name
setup-menu-keys = arrows + Enter or the key in brackets; Esc back; q quit

## A terminal too small for the screen

small-title = Terminal too small:
small-enlarge = please enlarge to { $width }x{ $height }
small-now = (now { $width }x{ $height })
small-keys-wait = Keys wait until it fits.
small-keys = Ctrl-L redraws, Ctrl-C quits

## The profile, keys and leaderboard

records-loading-profile = Loading your profile...
records-loading-game = Loading the game...
records-loading-keys = Loading your keys...
records-loading = Loading...
records-keys-back = Esc back
records-keys-profile = ↑↓ (or , .) + Enter replays a game   [k] keys   Esc back
records-keys-keys = arrows   [d] remove key   [g] link code   Esc back
records-keys-leaderboard = arrows: other game, scroll   Esc back
records-guest = You are playing as a guest. Connect with an SSH key and the host keeps your name, your rating and your games for you, from one visit to the next.
records-yourname = YOURNAME@
records-for-example = For example:
records-profile-of = Profile of { $name }
records-rating = { $rating } ± { $deviation }   { $won } won, { $lost } lost, { $drawn } drawn
records-no-rated-games = no rated games yet
records-puzzle-rating = { $rating } ± { $deviation }   { $solved } solved of { $tried }
records-no-puzzles = none tried yet: [z] in the lobby
records-no-games = No games yet.
records-last-games = { $count ->
    [one] Your last game:
   *[other] Your last { $count } games:
}
outcome-won = won
outcome-lost = lost
outcome-draw = draw
outcome-aborted = aborted
records-keys-title = Your SSH keys and link codes
records-link-code = Link code:
records-link-how = From the other machine, with its own key, connect with
records-link-once = once, within 10 minutes: that key joins this account.
records-link-offer = [g] gives a code to add a key from another machine.
records-rating-head = rating
records-games-head = games
records-nobody = Nobody yet.
records-rows = rows { $first }-{ $last } of { $count }
records-not-listed = You ({ $rating }) are not on the list yet: it takes { $requirement }.
records-to-appear = To appear here: { $requirement }, with an SSH key.

## A game stepped through, with its analysis

review-does-not-fit = the analysis does not fit this game
review-keys-done = arrows: one move   n/p: next/previous mistake   Esc back
review-keys-waiting = arrows: one move   Home/End: first/last   Esc back
review-keys = arrows: one move   Home/End   a analysis   Esc back
review-press-a = press a for the analysis
review-analysing = analysing the game...
review-no-analysis = no analysis: { $why }
review-won = { $name } won: { $reason }
review-move-of = Move { $move } of { $count }
review-best-marked = best: { $moves } (marked *)
review-guess-marked = guess: { $moves } (marked *)
value-not-settled = not settled
value-draw = draw
value-win-in = win ({ $value })
value-loss-in = loss ({ $value })
value-win = win
value-loss = loss
label-best = best
label-slower = slower
label-mistake = mistake
label-blunder = blunder
label-missed-win = missed win
label-allowed-win = allowed a win
summary-no-mistakes = no mistakes
summary-blunders = { $count ->
    [one] 1 blunder (move { $moves })
   *[other] { $count } blunders (moves { $moves })
}
summary-mistakes = { $count ->
    [one] 1 mistake (move { $moves })
   *[other] { $count } mistakes (moves { $moves })
}
summary-slower = { $count ->
    [one] 1 slower move (move { $moves })
   *[other] { $count } slower moves (moves { $moves })
}
summary-missed-wins = { $count ->
    [one] 1 missed win (move { $moves })
   *[other] { $count } missed wins (moves { $moves })
}
summary-allowed-wins = { $count ->
    [one] 1 allowed win (move { $moves })
   *[other] { $count } allowed wins (moves { $moves })
}
summary-best = { $count } best moves (moves { $moves })

## Puzzles

puzzle-answers = { $colour } answers { $move }
puzzle-keys-column = 1-7 or arrows, Enter: your move   Esc: lobby   ? help
puzzle-keys-point = arrows + Enter or a point (h8) + Enter   Esc lobby   ? help
puzzle-keys-over = n next puzzle   d daily puzzle   s solution   Esc lobby
puzzle-keys-lobby = Esc: lobby
puzzle-finding = finding a puzzle...
puzzle-daily = Puzzle of the day
puzzle-title = Puzzle
puzzle-rating = rating { $rating }
puzzle-yours = yours { $rating }
puzzle-unrated = unrated
puzzle-task-hold = find the only move that does not lose
puzzle-task-win-in = find the winning move (win in { $count })
puzzle-task-fours = find the win by fours ({ $count } to five)
puzzle-task-win = find the winning move
puzzle-to-move = { $colour } to move
puzzle-your-move-typed = your move: { $typed }
puzzle-your-move = your move
puzzle-solved = Solved!
puzzle-the-line = the line: { $moves }
puzzle-loses = { $move } loses
puzzle-not-the-move = { $move } is not the move
puzzle-not-solved = not solved
puzzle-answers-marked = { $colour } answers { $move } (marked)
puzzle-looking = the host looks for the answer...
puzzle-best = best: { $move }
puzzle-rating-change = your puzzle rating: { $before } -> { $after } ({ $change })
puzzle-repeat = tried before: not rated again
puzzle-guest-unrated = unrated: guests keep no puzzle rating
puzzle-solution = solution: { $moves }
puzzle-broken = this puzzle cannot be played on

## Typing a move

move-hint-point = type a point like h8 or 8,h
move-columns = A-{ $last } or 1-{ $count }
move-points = columns a-{ $last }, rows 1-{ $rows }
move-empty = type a move
move-unknown-column = unknown column '{ $text }': use { $range }
move-off-board = '{ $text }' is off the board: { $range }
move-not-understood = not understood: '{ $text }': { $hint }
refusal-own-room = that is your own room: give the code to a friend
refusal-you-play-there = you play in that game
refusal-invite-yourself = you cannot invite yourself
refusal-name-reserved = that name is kept for the computer: choose another
refusal-name-taken = { $name } is taken: you are { $given }
refusal-full-of-watchers = that game has all the watchers it may have ({ $count }): choose another
refusal-resume-over = that game is over: the code no longer leads back to it

## What the connection tells the person

input-dropped = Too much input at once: some keys were dropped.
idle-warning = You will be disconnected in { $seconds } s: press a key.
chat-off = chat is turned off on this host
chat-slow-down = slow down: at most { $count } messages a minute (wait { $seconds } s)
chat-too-long = too long: at most { $count } characters
name-owned = { $name } belongs to another player
name-too-soon = you can change your name once a minute: try again in { $seconds } s
refused-host-full = the host is full (limit { $limit } { $limit ->
    [one] session
   *[other] sessions
})
refused-per-address = too many sessions from your address (limit { $limit })
name-invalid-empty = a name cannot be empty
name-invalid-unshowable = that name has characters that cannot be shown (control, escape or invisible ones)
name-invalid-too-long = that name is { $columns } columns wide; at most { $max } fit
name-invalid-spaces = a name cannot start or end with a space, nor have two in a row
name-invalid-not-composed = that name's accents are not composed (Unicode NFC): type them as one character each
name-invalid-no-letters = a name needs a letter or a digit
name-invalid-reserved = that name is kept for the computer
name-unavailable = your name cannot be changed just now
name-registered = { $name } belongs to a registered player: choose another
login-no-room-account = no room has the code { $code }: you play under your account's name
login-no-room-registered = no room has the code { $code }, and { $code } belongs to a registered player
login-no-room-unchecked = no room has the code { $code }, and the store cannot check it as a name just now

## The web pages

web-languages = Languages
web-leaderboard-of = { $game } leaderboard
web-play-in-terminal = Play in your terminal:
web-counts = { $online } online · { $playing } playing
web-games-in-play = Games in play
web-no-games = No game is being played just now.
web-daily-how = – play it here, or in the terminal with z in the lobby.
web-leaderboards = Leaderboards
web-nobody-qualifies = Nobody qualifies yet: a player needs five rated games and a settled rating.
web-player = player
web-rating-history = rating history
web-playing-since = Playing since { $date }
web-ratings = Ratings
web-no-rated-game = No rated game yet.
web-rated-games = { $count ->
    [one] 1 rated game: { $won } won, { $lost } lost, { $drawn } drawn
   *[other] { $count } rated games: { $won } won, { $lost } lost, { $drawn } drawn
}
web-solved-of = { $solved } solved of { $tried }
web-last-games = Last games
web-date = date
web-opponent = opponent
web-result = result
web-how = how
web-view = view
web-reason-full = full board
web-reason-left = left the game
web-reason-cut-short = cut short
web-draw-because = Draw: { $reason }
web-cut-short = Cut short
web-first = first
web-back = back
web-move-of = move { $move } of { $count }
web-next = next
web-last = last
web-moves = Moves
web-best = best: { $moves }
web-text = text
web-not-found = Not found
web-front-page = The front page
web-slow-down = Slow down
web-too-many = Too many requests
web-try-again-in = Try again in { $seconds } s.
web-live = live
web-recorded-game = The recorded game
web-live-hint = The board follows the game as it is played (with JavaScript; otherwise reload the page).
web-play-move = play { $move }
web-puzzle-right = Right.
web-puzzle-click-column = Your move: click a column.
web-puzzle-click-point = Your move: click an intersection.
web-puzzle-ringed = (ringed)
web-puzzle-the-move-was = The move was
web-puzzle-type-it = Or type it:
web-puzzle-play = Play
web-puzzle-again = Try it again
web-puzzle-unrated = Puzzles on the web are not rated. To keep a puzzle rating, play them in the terminal (z in the lobby):
web-puzzle-too-many = more moves than this puzzle has: start again
web-the-line = The line: { $moves }
web-solution = The solution: { $moves }
web-nothing-here = Nothing is at this address.
web-store-down = The records cannot be read just now: try again in a moment.
web-no-such-leaderboard = There is a leaderboard for connect4 and for gomoku.
web-no-such-player = No player has this name.
web-no-such-game = No game has this id.
web-unknown-rules = This game's rules are not ones this host knows.
web-no-such-live = No game in play here has this number: it may have ended.
web-live-full = This game has all the viewers on the web it may have: try again later.
web-no-puzzles = This host has no puzzles yet (its admin makes them with `inarow puzzles build`).
web-puzzle-unshown = The day's puzzle cannot be shown.

## What the host tells a person unasked

news-invitation-sent = invitation sent to { $name }: it waits { $seconds } s for an answer
news-not-answered = { $name } did not answer your invitation
news-declined = { $name } declined your invitation
news-lapsed-other-game = your invitation lapsed: { $name } has started another game
news-lapsed-no-invitations = your invitation lapsed: { $name } does not take invitations now
news-lapsed-left = your invitation lapsed: { $name } has left
news-game-elsewhere = your game goes on at another host: taking you there
news-not-started = the game on the other host did not start
news-opponent-left-early = your opponent left before the game began
news-host-lost = The host of your game did not come back: it is lost, sorry.
news-not-delivered = { $host } did not answer: the invitation did not reach them
news-host-silent = The host of your game is not answering: looking for it...
replay-line = { $count ->
    [3] three in a line
    [4] four in a line
    [5] five in a line
    [6] six in a line
   *[other] { $count } in a line
}
replay-other-left = the other player left
replay-other-idle = the other player stopped moving
replay-other-flag = the other player's time ran out
replay-other-resigned = the other player resigned
welcome-store-down = the store is unavailable: playing as a guest
welcome-linked = This key is now linked to { $name }.
welcome-link-unknown = Link code { $code }: unknown or already used link code.
welcome-link-expired = Link code { $code }: the link code has expired.
welcome-link-key-taken = Link code { $code }: this key already belongs to another account.
daily-puzzle = { $game }, { $task }
daily-hold = the only move
daily-win-in = win in { $count }
daily-win = find the win
puzzles-away = the host's puzzles are not available right now: try again later
puzzles-all-tried = no puzzle left for you: you have tried them all. The host makes more with `inarow puzzles build`.
puzzles-none = this host has no puzzles yet (its admin makes them with `inarow puzzles build`)
puzzles-unshown = this puzzle cannot be shown: try the next one (n)
puzzles-gone = this puzzle is no longer kept: not rated
puzzles-not-recorded = not recorded: the host's records are away
records-game-unshown = this game cannot be shown
records-not-yours = no such game among yours
records-away = the host's records are not available right now: try again later
records-guest-no-account = guests have no account: connect with an SSH key to keep one
records-key-removed = key removed
records-no-such-key = the account has no such key
records-last-key = the last key of an account cannot be removed
banned-plain = You are banned from this host.
banned-reason = You are banned from this host: { $reason }
banned-for = You are banned from this host for about { $hours } more { $hours ->
    [one] hour
   *[other] hours
}.
banned-for-reason = You are banned from this host for about { $hours } more { $hours ->
    [one] hour
   *[other] hours
}: { $reason }
web-board = { $game } board
analysis-one-at-a-time = one analysis at a time: the last one is on its way
analysis-off = analysis is switched off on this host
analysis-busy = the host is analysing many games: try again in a moment
analysis-cannot = this game cannot be analysed (only standard 7x6 Connect Four, Gomoku and Renju)
