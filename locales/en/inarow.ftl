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
player = { $name } ({ $colour })
# The computer at a table: its level and stone colour.
player-computer = Computer ({ $level }, { $colour })

## The lobby's game menu

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
