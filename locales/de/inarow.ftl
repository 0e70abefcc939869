# inarows Texte für Spieler, auf Deutsch. Verbesserungen sind willkommen:
# eine Datei je Sprache, dieselben Kennungen wie locales/en/inarow.ftl.

## Die Spiele und die Steine

game-connect4 = Vier Gewinnt
game-gomoku = Gomoku (Fünf in einer Reihe)
game-renju = Renju

colour-red = Rot
colour-green = Grün
colour-yellow = Gelb
colour-blue = Blau

player-numbered = Spieler { $number }
player = { $name } ({ $colour })
player-computer = Computer ({ $level }, { $colour })

## Das Spielmenü der Lobby

lobby-choose-game = Wähle ein Spiel:
lobby-connect4-detail = { $width }x{ $height }, vier in einer Reihe, Steine fallen
lobby-gomoku-detail = { $width }x{ $height }, fünf gewinnen
lobby-gomoku-exact-detail = { $width }x{ $height }, genau fünf
lobby-renju-detail = { $width }x{ $height }, fünf; Anziehender: kein 3x3, 4x4, sechs
lobby-quick-match = Schnelles Spiel
lobby-quick-match-detail = wer als Nächstes sucht
lobby-computer = Gegen den Computer
lobby-computer-detail = Stufe wählen
lobby-invite = Freund einladen
lobby-invite-detail = einen Raumcode zum Weitergeben
lobby-rated-invite = Gewertete Einladung
lobby-rated-invite-detail = für zwei Spieler mit Schlüssel
lobby-back = Zurück
lobby-back-detail = andere Spiele
lobby-quit = Beenden

## Wie ein Spiel endete

end-line = { $player } hat mit folgenden Steinen gewonnen: { $points }
end-full = Remis: das Brett ist voll
end-resigned = { $loser } hat aufgegeben: { $winner } gewinnt
end-agreed = Remis nach Vereinbarung
end-flag = { $loser } hat die Zeit überschritten: { $winner } gewinnt
