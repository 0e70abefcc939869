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
player-named = { $name } ({ $colour })
player-computer = Computer ({ $level }, { $colour })
player-computer-name = Computer ({ $level })

## Das Spielmenü der Lobby

lobby-welcome = Willkommen bei inarow: Vier Gewinnt, Gomoku und Renju, gegen Menschen oder den Computer.
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

## Hilfe (? oder F1)

help-title = Hilfe
help-any-key = Eine beliebige Taste führt zurück.
help-key-menu = Pfeile, Enter
help-key-bracket = [Taste]
help-key-click = Klick
help-key-esc-q = Esc oder q
help-key-up-down = hoch, runter
help-key-left-right = links, rechts
help-key-arrows = Pfeile
help-key-typed-point = h8 oder 8,h
help-key-puzzle-column = 1-7, Pfeile
help-key-puzzle-point = h8, Pfeile
help-key-the-line = die Folge
help-key-after-game = nach dem Spiel
help-key-help = ? oder F1
help-menu = im Menü bewegen und wählen
help-bracket = die Taste in Klammern wählt den Eintrag
help-esc-back = einen Schritt zurück (leert ein Feld)
help-lobby-join = zu einem Freund: seinen Raumcode eingeben
help-lobby-stones = Steine als Emoji oder als Buchstaben
help-lobby-profile = dein Profil: Wertungen, Partien, Schlüssel
help-lobby-leaderboard = die Bestenliste jedes Spiels
help-lobby-watch = einer laufenden Partie zusehen
help-lobby-online = wer online ist: jemanden einladen
help-lobby-puzzles = Aufgaben aus echten Partien (gewertet)
help-lobby-language = Sprache: English, Deutsch, 繁體中文
help-click-menu = einen Eintrag mit der Maus wählen
help-waiting-stop = nicht mehr warten, zurück zur Lobby
help-records-choose = Partie oder Schlüssel wählen; blättern
help-records-replay = die gewählte Partie nachspielen
help-records-step = Nachspielen: ein Zug; Bestenliste: Spiel
help-records-ends = Nachspielen: erster und letzter Zug
help-records-keys = Profil: deine Schlüssel und Codes
help-records-key-actions = Schlüssel entfernen; ein Verknüpfungscode
help-back = zurück
help-puzzle-column = Vier Gewinnt: Spalte, Enter wirft ein
help-puzzle-point = Gomoku: Punkt tippen oder wählen, Enter
help-puzzle-line = weiterspielen: der Host antwortet
help-puzzle-next = nach einer Aufgabe: die nächste, die des Tages
help-puzzle-solution = nach einer Aufgabe: die Lösung zeigen
help-puzzle-back = zurück zur Lobby
help-game-column = den Stein über die Spalten bewegen
help-game-drop = einwerfen
help-game-typed-column = diese Spalte wählen, dann Enter
help-game-cursor = den Cursor bewegen
help-game-place = einen Stein setzen
help-game-typed-point = Punkt tippen (Spalte, Reihe), dann Enter
help-game-click = dort spielen, wo du klickst
help-game-resign = aufgeben (fragt vorher)
help-game-undo = deinen letzten Zug zurücknehmen
help-game-draw = Remis anbieten oder annehmen; ablehnen
help-game-takeback = Zugrücknahme erbitten (ungewertet)
help-game-swap2 = Swap2-Eröffnung: wie angezeigt wählen
help-game-claim = Sieg beanspruchen (ohne Uhr, Gegner untätig)
help-game-chat = Chat: Enter sendet, Esc schließt; /mute
help-game-leave = die Partie verlassen (fragt: sie ist verloren)
help-game-after-remote = r Revanche, l Lobby, q beenden
help-game-quit = beenden (fragt vorher)
help-game-after-local = r nochmal, m Menü, q beenden
help-this = diese Hilfe
help-redraw = den Bildschirm neu zeichnen
help-quit-now = sofort beenden

## Die Regeln in wenigen Worten

rules-connect4 = Vier Gewinnt, { $width }x{ $height }: Abwechselnd wird ein Stein in eine Spalte geworfen; er fällt auf das unterste freie Feld. Vier Steine in einer Reihe (waagrecht, senkrecht oder diagonal) gewinnen; ist das Brett voll, ist es Remis.
rules-gomoku = Gomoku, { $width }x{ $height }: Abwechselnd wird ein Stein auf einen freien Punkt gesetzt. Fünf Steine in einer Reihe (waagrecht, senkrecht oder diagonal) gewinnen, sechs oder mehr ebenso. Ist das Brett voll, ist es Remis.
rules-gomoku-exact = Gomoku, { $width }x{ $height }: Abwechselnd wird ein Stein auf einen freien Punkt gesetzt. Genau fünf Steine in einer Reihe (waagrecht, senkrecht oder diagonal) gewinnen; sechs oder mehr zählen nicht. Ist das Brett voll, ist es Remis.
rules-renju = Renju, { $width }x{ $height }: Abwechselnd wird ein Stein auf einen freien Punkt gesetzt. Fünf in einer Reihe gewinnen. Der Anziehende („Schwarz“, gleich welcher Farbe) darf keine Doppeldrei, keine Doppelvier und keine Sechs bilden (Verbotspunkte, am Zug mit x markiert); eine Fünf gewinnt trotzdem. Der Nachziehende darf überall setzen und gewinnt mit fünf oder mehr.

## Die Stufen des Computers

level-easy = leicht
level-medium = mittel
level-hard = schwer
level-perfect = perfekt
level-strong = stark
level-number = Stufe { $number }
level-c4-easy = nutzt und blockt Offensichtliches
level-c4-medium = schaut ein paar Züge voraus
level-c4-hard = fast perfekt, patzt ab und zu
level-c4-perfect = macht aus Sieg und Remis nie Verlust
level-gomoku-1 = spielt bei den Steinen, übersieht Vieren
level-gomoku-2 = blockt ab und zu
level-gomoku-3 = blockt meistens
level-gomoku-4 = blockt Drohungen, spielt nach Gefühl
level-gomoku-5 = schaut zwei Züge voraus
level-gomoku-6 = schaut drei Züge voraus
level-gomoku-7 = Drohungssuche, denkt kurz
level-gomoku-8 = Drohungssuche, schwer zu schlagen

## Der Spielbildschirm

title-rated = gewertet
title-watching = { $count ->
    [one] { $count } schaut zu
   *[other] { $count } schauen zu
}
title-round = Runde { $round }   Stand { $first } : { $second }
players-you = {" "}(du)
players-vs = gegen
points-how-to-read = (x|y): Spalte und Reihe, ab 0 von unten links gezählt
status-your-choice = { $name }: deine Wahl (siehe über dem Brett)
status-waiting-choice = Warte, bis { $name } wählt...
status-places = { $name } setzt einen Stein: { $colour }
status-to-move = { $player } ist am Zug
status-thinking = { $player } denkt nach...
status-waiting = Warte auf { $player }...
status-last-move = letzter Zug { $point }
field-press-three = Drücke 1, 2 oder 3
field-press-two = Drücke 1 oder 2
field-move = Zug:
field-hint-column = Pfeile + Enter, Klick oder { $keys }
field-hint-point = Pfeile + Enter, Klick oder ein Punkt: h8
field-next = Nächster Zug:
field-next-hint = Enter spielt ihn, wenn du dran bist
rematch-gone = { $names } hat den Tisch verlassen
rematch-asked = Revanche gewünscht: warte auf die andere Seite...
rematch-wanted = { $names } will eine Revanche: drücke r
confirm-leave-abort = Partie verlassen? Noch haben nicht beide gezogen: Abbruch. j/n
confirm-leave-lose = Partie verlassen? Du verlierst sie. j/n
confirm-leave = Partie verlassen? j/n
confirm-resign-for = Aufgeben für { $player }? j/n
confirm-resign-abort = Aufgeben? Noch haben nicht beide gezogen: Abbruch. j/n
confirm-resign = Aufgeben? Du verlierst diese Partie. j/n
resume-hint = Getrennt? Melde dich als { $code } an oder tippe { $code } ein
web-address = Im Netz: { $url }
verdict-win = Du gewinnst!
verdict-lost = Du hast verloren.
verdict-draw = Remis.
verdict-rating = Wertung { $change }

## Die Tastenleiste

keys-undo = u zurück
keys-claim = w Sieg beanspruchen
keys-draw = = Remis
keys-takeback = u Zugrücknahme
keys-chat = Tab Chat
keys-help = ? Hilfe
keys-back-to-lobby = q zurück zur Lobby
keys-leave = q verlassen
keys-resign = ! aufgeben
keys-quit = q beenden
after-keys-gone = [a] Analyse   [l] zurück zur Lobby   [q] beenden
after-keys-remote = [r] Revanche  [a] Analyse  [l] Lobby  [q] beenden
after-keys-remote-undo = [r] Revanche  [a] Analyse  [u] zurück  [l] Lobby  [q] Ende
after-keys-local = [r] nochmal  [a] Analyse  [m] Menü  [q] beenden
after-keys-local-undo = [r] nochmal  [a] Analyse  [u] zurück  [m] Menü  [q] beenden

## Über dem Brett

swap2-chose = Swap2: { $name } spielt { $colour }
swap2-place-three = Swap2: setze drei Steine, { $first }, { $second }, { $first } (jetzt { $next })
swap2-places-three = Swap2: { $name } setzt drei Eröffnungssteine
swap2-choose = Swap2: 1 spiele { $first }   2 spiele { $second } und setze   3 setze zwei weitere
swap2-chooses = Swap2: { $name } wählt eine Farbe oder setzt zwei weitere
swap2-place-two = Swap2: setze zwei weitere Steine, { $second }, dann { $first } (jetzt { $next })
swap2-places-two = Swap2: { $name } setzt zwei weitere Steine
swap2-choose-again = Swap2: 1 spiele { $first } ({ $other } setzt)   2 spiele { $second } und setze
swap2-chooses-again = Swap2: { $name } wählt eine Farbe
opponent-away = { $name } hat die Verbindung verloren, warte { $seconds } s...
claim-due = { $name } hat lange nicht gezogen: w beansprucht den Sieg
declined-draw = { $name } lehnt das Remis ab: weiterspielen
declined-takeback = { $name } lehnt die Zugrücknahme ab: weiterspielen
offer-draw-to-me = { $name } bietet Remis an: = annehmen   - ablehnen
offer-takeback-to-me = { $name } bittet um Zugrücknahme: = erlauben   - ablehnen
offer-draw-watched = { $from } bietet { $to } Remis an
offer-takeback-watched = { $from } bittet { $to } um Zugrücknahme
offer-draw-mine = Du hast Remis angeboten: warte auf { $to }
offer-takeback-mine = Du hast um Zugrücknahme gebeten: warte auf { $to }

## Meldungen im Spiel

not-your-turn = du bist nicht dran: { $player } ist am Zug
forbidden-point = { $point } ist für { $colour } (Anziehender) im Renju verboten: { $why }
forbidden-double-three = Doppeldrei
forbidden-double-four = Doppelvier
forbidden-overline = Überlänge
illegal-over = die Partie ist vorbei
illegal-column-full = Spalte { $column } ist voll
illegal-occupied = { $point } ist schon besetzt
illegal-off-board = { $point } liegt nicht auf dem Brett
illegal-not-landing = ein Stein in Spalte { $column } landet auf { $lands }, nicht auf { $asked }
watching-keys = du schaust zu: q führt zurück zur Lobby
you-stay = du bleibst in der Partie
you-play-on = du spielst weiter
nothing-to-take-back = nichts zurückzunehmen
swap2-choose-with-three = wähle mit 1, 2 oder 3 (siehe über dem Brett)
swap2-choose-with-two = wähle mit 1 oder 2 (siehe über dem Brett)
minus-no-offer = - lehnt ein Angebot ab, und keines wartet auf deine Antwort
no-takebacks-rated = keine Zugrücknahme in gewerteten Partien
you-left-no-rematch = du hast die Partie verlassen: keine Revanche
opponent-left-no-rematch = dein Gegner ist gegangen: keine Revanche
key-does-nothing = „{ $key }“ tut hier nichts: nimm eine Taste von unten
claim-clock = w beansprucht den Sieg nur ohne Uhr: hier entscheidet die Uhr
claim-computer = w gilt gegen Menschen, die nicht ziehen: der Computer zieht immer
claim-shared = w gilt gegen Menschen, die nicht ziehen: nicht an einer Tastatur
claim-your-move = du bist am Zug: w gilt nur, solange dein Gegner dich warten lässt
claim-early = den Sieg beanspruchen geht erst, wenn dein Gegner eine Weile nicht gezogen hat
game-moved-carried = deine Partie ist auf einen anderen Host umgezogen: dein Zug geht mit

## Chat am Tisch

chat-muted-watchers = die Nachrichten der anderen Zuschauer sind für diese Partie ausgeblendet (/unmute)
chat-muted-opponent = die Nachrichten deines Gegners sind für diese Partie ausgeblendet (/unmute)
chat-unmuted = Nachrichten werden wieder gezeigt
chat-commands = Chat-Befehle: /mute und /unmute
chat-say = Sag:
chat-at-most = höchstens { $count } Zeichen
chat-enter-sends = Enter sendet, Esc schließt
chat-title = Chat
chat-title-watchers = Chat der Zuschauer
chat-muted-mark = (stumm)
chat-tab-to-say = Tab, um etwas zu sagen
pane-moves = Züge ({ $count })

## Warum eine Partie endete

reason-line = eine Reihe
reason-full = Remis: das Brett ist voll
reason-resigned = aufgegeben
reason-agreed = Remis vereinbart
reason-flag = Zeit überschritten
reason-stopped = abgebrochen: { $reason }
why-left = ist gegangen
why-disconnected = hat die Verbindung getrennt
why-lost-connection = hat die Verbindung verloren
why-idle = war zu lange untätig
why-idle-for = war { $seconds } s untätig
why-shutdown = der Host fährt herunter
why-replaced = hat sich anderswo neu verbunden
why-resigned = hat aufgegeben
why-computer-failed = der Computer ist ausgefallen
end-forfeit = { $loser } { $why }: { $winner } gewinnt kampflos
end-aborted = Partie abgebrochen: { $reason }
end-aborted-early = { $player } { $why }, bevor beide gezogen hatten

## Absagen

refusal-no-such-level = diese Stufe hat der Computer bei { $game } nicht: wähle eine aus der Liste
refusal-invitations-per-minute = höchstens { $count } Einladungen pro Minute: warte ein wenig
refusal-host-did-not-answer = { $host } hat nicht geantwortet: versuch es noch einmal
refusal-room-host-did-not-answer = der Server des Raums { $code } hat nicht geantwortet: versuch es noch einmal
refusal-game-did-not-start = { $host } hat nicht geantwortet: die Partie hat nicht begonnen
refusal-not-understood = eine Anfrage, die dieser Host nicht versteht
refusal-shutting-down = der Host fährt herunter
refusal-game-not-offered = dieses Spiel gibt es hier nicht
refusal-player-left = dieser Spieler ist gegangen
refusal-no-invitations = { $name } nimmt keine Einladungen an
refusal-playing = { $name } spielt gerade: versuch es später
refusal-watching = { $name } schaut einer Partie zu: versuch es später
refusal-hosting = { $name } wartet auf einen Freund: versuch es später
refusal-invited-already = du hast { $name } schon eingeladen: warte auf die Antwort
refusal-too-many-invitations = höchstens { $count } Einladungen dürfen warten: warte auf Antworten
refusal-many-invitations-waiting = bei { $name } warten viele Einladungen: versuch es später
refusal-invitation-closed = diese Einladung gilt nicht mehr
refusal-no-longer-free = { $name } ist nicht mehr frei
refusal-has-left = { $name } ist gegangen
refusal-friend-left = dein Freund ist gegangen
refusal-game-ended = diese Partie ist vorbei: wähle eine andere
refusal-private = diese Partie ist privat: ihre Spieler wollen keine Zuschauer
refusal-you-left = du bist gegangen
refusal-at-another-table = du sitzt an einem anderen Tisch
refusal-no-seat = in dieser Partie ist kein Platz für dich
refusal-room-playing = im Raum { $code } wird schon gespielt: frag deinen Freund nach einem neuen Code
refusal-no-such-room = kein Raum hat den Code { $code }: prüfe ihn mit deinem Freund
refusal-cannot-run = die in NATS gehaltene Partie kann dieser Host nicht führen
refusal-game-moved = deine Partie ist auf einen anderen Host umgezogen: spiel deinen Zug noch einmal
refusal-host-not-answering = der Host deiner Partie antwortet nicht: spiel gleich noch einmal

## Antworten des Tisches

table-choose-side-first = wähle zuerst eine Seite: 1, 2 oder 3 (siehe über dem Brett)
table-no-side-to-choose = jetzt ist keine Seite zu wählen
table-stones-placed = die Steine stehen: wähle die erste oder die zweite Seite
table-not-during-swap2 = nicht während der Swap2-Eröffnung
table-computer-plays-on = der Computer spielt weiter
table-takeback-with-u = drücke u, um gegen den Computer einen Zug zurückzunehmen
table-offer-waiting = dein Angebot wartet auf eine Antwort
table-answer-first = beantworte zuerst das Angebot deines Gegners
table-no-move-to-take-back = du hast keinen Zug zum Zurücknehmen
table-opening-stays = die Eröffnungssteine werden nicht zurückgenommen
table-offered-already = du hast bei diesem Zug schon etwas angeboten: spiel weiter
table-no-offer = es gibt kein Angebot zu beantworten
table-undo-computer-only = Züge werden nur gegen den Computer zurückgenommen
table-game-over = diese Partie ist vorbei
rules-in-a-line = { $count } in einer Reihe
rules-exactly = genau { $count }

## Die übrigen Einträge der Lobby

lobby-join = Zu einem Freund
lobby-join-detail = seinen Raumcode eingeben
lobby-name = Namen ändern
lobby-colour = Deine Farbe
lobby-profile = Dein Profil
lobby-profile-detail = Wertungen, Partien, Nachspielen
lobby-leaderboard = Bestenliste
lobby-watch = Zuschauen
lobby-watch-detail = die laufenden Partien
lobby-online = Wer ist online
lobby-online-detail = jemanden einladen
lobby-stones = Steine
lobby-stones-detail = Emoji oder Buchstaben
lobby-stones-now = jetzt { $theme }
lobby-puzzles = Aufgaben
lobby-puzzles-detail = Stellungen aus echten Partien
lobby-language = Sprache
lobby-language-detail = English, Deutsch, 繁體中文
lobby-waiting-here = { $count ->
    [one] 1 wartet auf ein Spiel
   *[other] { $count } warten auf ein Spiel
}
first-who = Wer beginnt
first-random = einer von euch, ausgelost
first-you = du
first-computer = der Computer
levels-question = { $game } gegen den Computer: wie stark?
colour-question = Deine Farbe, wenn dein Gegner sie nicht hat:
colour-any = Egal
colour-any-detail = die Farbe wird je Partie ausgelost
name-question = Wie sollen dich die anderen nennen?
name-field = Name:
name-enter-keeps = Enter behält { $name }
join-question = Der Raumcode deines Freundes:
join-field = Code:
join-type-code = gib den Raumcode ein, den dein Freund dir gab
not-a-choice = „{ $key }“ ist keine der Möglichkeiten: drücke eine Taste in Klammern
field-keys = Enter bestätigt, Esc zurück, Strg-C beendet
menu-keys = Pfeile + Enter oder [Taste]; Esc zurück; ? Hilfe
header-you-are = du bist { $name }
header-counts = { $online } online, { $playing } spielen
header-waiting = { $count ->
    [one] 1 Spieler wartet auf { $game }
   *[other] { $count } Spieler warten auf { $game }
}
header-degraded = manches geht gerade nicht: andere Hosts nicht erreichbar
header-daily = Aufgabe des Tages: { $puzzle }

## Warten auf ein schnelles Spiel

seek-looking = Suche einen weiteren { $game }-Spieler... { $seconds }s
seek-offer-computer = Noch ist niemand gekommen. Solange gegen den Computer?
seek-keep-waiting = Weiter warten
seek-esc = Esc beendet die Suche
seek-nearest = { $count ->
    [one] 1 weiterer Spieler wartet, Wertung { $rating }:
   *[other] { $count } weitere Spieler warten, die nächste Wertung { $rating }:
}
seek-pairing-reach = Paarung, wenn das Fenster ±{ $window } erreicht (in { $seconds } s).
seek-pairing-reach-now = Paarung, wenn das Fenster ±{ $window } erreicht (jeden Moment).
seek-pairing-anyone = Paarung, wenn das Fenster für alle offen ist (in { $seconds } s).
seek-pairing-anyone-now = Paarung, wenn das Fenster für alle offen ist (jeden Moment).
seek-others-far = { $count ->
    [one] 1 weiterer Spieler wartet, mit einer Wertung noch zu weit von deiner:
   *[other] { $count } weitere Spieler warten, mit Wertungen noch zu weit von deiner:
}
seek-widening = Paarung jetzt innerhalb ±{ $window }, offen für alle in { $seconds } s.
seek-next-person = Du spielst gegen den Nächsten, der dieses Spiel sucht.

## Ein Raum für einen Freund

room-title = Ein { $game }-Raum für dich und einen Freund
room-code = Raumcode:
room-how-to-join = Dein Freund wählt „{ $join }“ in der Lobby und tippt ihn ein,
room-or-connect = oder verbindet sich mit: { $command }
room-watchers-on = Zuschauer: andere dürfen zusehen (w: privat halten)
room-watchers-off = Zuschauer: deine Partie ist privat (w: Zuschauer erlauben)
room-clock = Uhr:      { $clock } (c: ändern)
room-opening = Eröffnung: { $opening } (o: ändern)
room-waiting = Warte auf deinen Freund...
room-opening-room = Raum wird geöffnet...
room-esc = Esc schließt den Raum
clock-none = ohne Uhr
opening-standard = normal (der erste Spieler beginnt)
opening-swap2 = Swap2 (drei Steine gesetzt, dann Wahl der Seite)

## Laufende Partien

games-asking = Laufende Partien: frage die Lobby...
games-none = Laufende Partien: gerade keine
games-to-watch = Laufende Partien: { $count } zum Zusehen
games-game = Spiel
games-players = Spieler
games-moves = Züge
games-watching = Zuschauer
games-keys = Pfeile, Enter schaut zu, r neu laden, Esc zurück, ? Hilfe

## Wer ist online, Einladungen

people-asking = Wer ist online: frage die Lobby...
people-title = Wer ist online: { $count }
people-counts = { $lobby } in der Lobby, { $seeking } suchen, { $playing } spielen, { $watching } schauen zu
people-name = Name
people-short-connect4 = VG
people-short-gomoku = Gomoku
people-short-renju = Renju
people-doing = tut gerade
people-that-is-you = das bist du: wähle jemand anderen
people-rated-who = gewertet nur zu zweit mit Konten, auf dem normalen Brett
people-swap2-games = Swap2 gibt es für Gomoku und Renju
people-how = Pfeile wählen eine Person, Enter lädt sie ein
people-keys-on = Enter lädt ein, i Einladungen (an), r neu, Esc zurück
people-keys-off = Enter lädt ein, i Einladungen (aus), r neu, Esc zurück
doing-lobby = in der Lobby
doing-seeking = sucht { $game }
doing-hosting = wartet auf einen Freund
doing-playing = spielt
doing-watching = schaut zu
doing-on-host = auf { $host }
doing-no-invitations = keine Einladungen
invite-title = { $name } zu einer Partie einladen
invite-game = [g] Spiel:    { $value }
invite-rated-field = [r] Wertung:  { $value }
invite-clock = [c] Uhr:      { $value }
invite-opening = [o] Eröffnung: { $value }
invite-casual-only = ungewertet (gewertet nur mit Konten)
invite-rated = gewertet
invite-casual = ungewertet
invite-wait = Die Antwort muss binnen { $seconds } Sekunden kommen.
invite-keys = Enter sendet die Einladung, Esc geht zurück
invitation-title = Eine Einladung
invitation-from = { $name } lädt dich zu einer Partie ein:
invitation-swap2 = Swap2-Eröffnung
invitation-keys = [j] annehmen   [n] ablehnen
invitation-more = { $count ->
    [one] noch 1 Einladung nach dieser
   *[other] noch { $count } Einladungen nach dieser
}
invitation-lapses = Sie verfällt ohne Antwort nach { $seconds } Sekunden.

## inarow play: die Fragen vor der Partie

setup-title = k in einer Reihe
setup-new-game = Neue Partie
setup-which-game = Welches Spiel?
setup-who-plays = Wer spielt?
setup-how-strong = Wie stark soll der Computer spielen?
setup-your-name = Wie heißt du?
setup-player-name = Wie heißt Spieler { $number }?
setup-pick-colour = { $name }, wähle eine Farbe:
setup-who-starts = Wer beginnt?
setup-vs-computer = Gegen den Computer
setup-two-players = Zwei Spieler
setup-two-players-detail = an dieser Tastatur
setup-the-computer = Der Computer
setup-vs-computer-level = gegen den Computer ({ $level })
setup-vs-computer-short = gegen den Computer
setup-two-players-short = zwei Spieler
setup-name-taken = { $name } ist schon vergeben: wähle einen anderen Namen
setup-menu-keys = Pfeile + Enter oder [Taste]; Esc zurück; q beendet

## Ein zu kleines Terminal

small-title = Terminal zu klein:
small-enlarge = bitte auf { $width }x{ $height } vergrößern
small-now = (jetzt { $width }x{ $height })
small-keys-wait = Tasten warten, bis es passt.
small-keys = Strg-L zeichnet neu, Strg-C beendet

## Profil, Schlüssel und Bestenliste

records-loading-profile = Lade dein Profil...
records-loading-game = Lade die Partie...
records-loading-keys = Lade deine Schlüssel...
records-loading = Lade...
records-keys-back = Esc zurück
records-keys-profile = ↑↓ + Enter spielt nach   [k] Schlüssel   Esc zurück
records-keys-keys = Pfeile   [d] Schlüssel entfernen   [g] Code   Esc zurück
records-keys-leaderboard = Pfeile: anderes Spiel, blättern   Esc zurück
records-guest = Du spielst als Gast. Verbinde dich mit einem SSH-Schlüssel, dann behält der Host deinen Namen, deine Wertung und deine Partien von Besuch zu Besuch.
records-yourname = DEINNAME@
records-for-example = Zum Beispiel:
records-profile-of = Profil von { $name }
records-rating = { $rating } ± { $deviation }   { $won } gewonnen, { $lost } verloren, { $drawn } remis
records-no-rated-games = noch keine gewerteten Partien
records-puzzle-rating = { $rating } ± { $deviation }   { $solved } von { $tried } gelöst
records-no-puzzles = noch keine versucht: [z] in der Lobby
records-no-games = Noch keine Partien.
records-last-games = { $count ->
    [one] Deine letzte Partie:
   *[other] Deine letzten { $count } Partien:
}
outcome-won = gewonnen
outcome-lost = verloren
outcome-draw = remis
outcome-aborted = abgebrochen
records-keys-title = Deine SSH-Schlüssel und Verknüpfungscodes
records-link-code = Verknüpfungscode:
records-link-how = Verbinde dich vom anderen Rechner (mit seinem Schlüssel):
records-link-once = einmal binnen 10 Minuten: der Schlüssel gehört dann dir.
records-link-offer = [g]: Code für einen Schlüssel eines anderen Rechners.
records-rating-head = Wertung
records-games-head = Partien
records-nobody = Noch niemand.
records-rows = Zeilen { $first }-{ $last } von { $count }
records-not-listed = Du ({ $rating }) stehst noch nicht auf der Liste: dazu braucht es { $requirement }.
records-to-appear = Um hier zu stehen: { $requirement }, mit einem SSH-Schlüssel.

## Eine Partie nachspielen, mit Analyse

review-does-not-fit = die Analyse passt nicht zu dieser Partie
review-keys-done = Pfeile: ein Zug   n/p: nächster/voriger Fehler   Esc
review-keys-waiting = Pfeile: ein Zug   Pos1/Ende: erster/letzter   Esc zurück
review-keys = Pfeile: ein Zug   Pos1/Ende   a Analyse   Esc zurück
review-press-a = a für die Analyse
review-analysing = analysiere die Partie...
review-no-analysis = keine Analyse: { $why }
review-won = { $name } gewann: { $reason }
review-move-of = Zug { $move } von { $count }
review-best-marked = am besten: { $moves } (mit * markiert)
review-guess-marked = vermutlich: { $moves } (mit * markiert)
value-not-settled = offen
value-draw = remis
value-win-in = Gewinn ({ $value })
value-loss-in = Verlust ({ $value })
value-win = Gewinn
value-loss = Verlust
label-best = bester Zug
label-slower = langsamer
label-mistake = Fehler
label-blunder = grober Fehler
label-missed-win = Gewinn verpasst
label-allowed-win = Gewinn zugelassen
summary-no-mistakes = keine Fehler
summary-blunders = { $count ->
    [one] 1 grober Fehler (Zug { $moves })
   *[other] { $count } grobe Fehler (Züge { $moves })
}
summary-mistakes = { $count ->
    [one] 1 Fehler (Zug { $moves })
   *[other] { $count } Fehler (Züge { $moves })
}
summary-slower = { $count ->
    [one] 1 langsamerer Zug (Zug { $moves })
   *[other] { $count } langsamere Züge (Züge { $moves })
}
summary-missed-wins = { $count ->
    [one] 1 verpasster Gewinn (Zug { $moves })
   *[other] { $count } verpasste Gewinne (Züge { $moves })
}
summary-allowed-wins = { $count ->
    [one] 1 zugelassener Gewinn (Zug { $moves })
   *[other] { $count } zugelassene Gewinne (Züge { $moves })
}
summary-best = { $count } beste Züge (Züge { $moves })

## Aufgaben

puzzle-answers = { $colour } antwortet { $move }
puzzle-keys-column = 1-7 oder Pfeile, Enter: dein Zug   Esc: Lobby   ? Hilfe
puzzle-keys-point = Pfeile + Enter oder h8 + Enter   Esc Lobby   ? Hilfe
puzzle-keys-over = n nächste   d Tagesaufgabe   s Lösung   Esc Lobby
puzzle-keys-lobby = Esc: Lobby
puzzle-finding = suche eine Aufgabe...
puzzle-daily = Aufgabe des Tages
puzzle-title = Aufgabe
puzzle-rating = Wertung { $rating }
puzzle-yours = deine { $rating }
puzzle-unrated = ungewertet
puzzle-task-hold = finde den einzigen Zug, der nicht verliert
puzzle-task-win-in = finde den Gewinnzug (Gewinn in { $count })
puzzle-task-fours = finde den Gewinn mit Vieren ({ $count } bis zur Fünf)
puzzle-task-win = finde den Gewinnzug
puzzle-to-move = { $colour } am Zug
puzzle-your-move-typed = dein Zug: { $typed }
puzzle-your-move = dein Zug
puzzle-solved = Gelöst!
puzzle-the-line = die Folge: { $moves }
puzzle-loses = { $move } verliert
puzzle-not-the-move = { $move } ist nicht der Zug
puzzle-not-solved = nicht gelöst
puzzle-answers-marked = { $colour } antwortet { $move } (markiert)
puzzle-looking = der Host sucht die Antwort...
puzzle-best = am besten: { $move }
puzzle-rating-change = deine Aufgabenwertung: { $before } -> { $after } ({ $change })
puzzle-repeat = schon versucht: nicht erneut gewertet
puzzle-guest-unrated = ungewertet: Gäste haben keine Aufgabenwertung
puzzle-solution = Lösung: { $moves }
puzzle-broken = diese Aufgabe lässt sich nicht weiterspielen

## Einen Zug tippen

move-hint-point = tippe einen Punkt wie h8 oder 8,h
move-columns = A-{ $last } oder 1-{ $count }
move-points = Spalten a-{ $last }, Reihen 1-{ $rows }
move-empty = tippe einen Zug
move-unknown-column = unbekannte Spalte „{ $text }“: nimm { $range }
move-off-board = „{ $text }“ liegt nicht auf dem Brett: { $range }
move-not-understood = nicht verstanden: „{ $text }“: { $hint }
refusal-own-room = das ist dein eigener Raum: gib den Code einem Freund
refusal-you-play-there = du spielst in dieser Partie
refusal-invite-yourself = du kannst dich nicht selbst einladen
refusal-name-reserved = dieser Name gehört dem Computer: wähle einen anderen
refusal-name-taken = { $name } ist vergeben: du bist { $given }
refusal-full-of-watchers = diese Partie hat schon alle Zuschauer, die sie haben darf ({ $count }): wähle eine andere
refusal-resume-over = diese Partie ist vorbei: der Code führt nicht mehr zu ihr

## Was die Verbindung mitteilt

input-dropped = Zu viele Eingaben auf einmal: einige Tasten gingen verloren.
idle-warning = Die Verbindung wird in { $seconds } s getrennt: drücke eine Taste.
chat-off = der Chat ist auf diesem Host aus
chat-slow-down = langsamer: höchstens { $count } Nachrichten pro Minute (warte { $seconds } s)
chat-too-long = zu lang: höchstens { $count } Zeichen
name-owned = { $name } gehört einem anderen Spieler
name-too-soon = du kannst deinen Namen einmal pro Minute ändern: versuch es in { $seconds } s
refused-host-full = der Server ist voll (höchstens { $limit } { $limit ->
    [one] Sitzung
   *[other] Sitzungen
})
refused-per-address = zu viele Sitzungen von deiner Adresse (höchstens { $limit })
name-invalid-empty = ein Name darf nicht leer sein
name-invalid-unshowable = dieser Name enthält Zeichen, die nicht angezeigt werden können (Steuer-, Escape- oder unsichtbare Zeichen)
name-invalid-too-long = dieser Name ist { $columns } Spalten breit; höchstens { $max } passen
name-invalid-spaces = ein Name darf nicht mit einem Leerzeichen beginnen oder enden und keine zwei hintereinander haben
name-invalid-not-composed = die Akzente dieses Namens sind nicht zusammengesetzt (Unicode NFC): tippe jeden als ein Zeichen
name-invalid-no-letters = ein Name braucht einen Buchstaben oder eine Ziffer
name-invalid-reserved = dieser Name ist für den Computer reserviert
name-unavailable = dein Name kann gerade nicht geändert werden
name-registered = { $name } gehört einem registrierten Spieler: wähle einen anderen
login-no-room-account = kein Raum hat den Code { $code }: du spielst unter dem Namen deines Kontos
login-no-room-registered = kein Raum hat den Code { $code }, und { $code } gehört einem registrierten Spieler
login-no-room-unchecked = kein Raum hat den Code { $code }, und er kann gerade nicht als Name geprüft werden

## Die Webseiten

web-languages = Sprachen
web-leaderboard-of = Bestenliste { $game }
web-play-in-terminal = Im Terminal spielen:
web-counts = { $online } online · { $playing } spielen
web-games-in-play = Laufende Partien
web-no-games = Gerade wird keine Partie gespielt.
web-daily-how = – hier spielen, oder im Terminal mit z in der Lobby.
web-leaderboards = Bestenlisten
web-nobody-qualifies = Noch niemand steht auf der Liste: dazu braucht es fünf gewertete Partien und eine gefestigte Wertung.
web-player = Spieler
web-rating-history = Verlauf der Wertung
web-playing-since = Spielt seit { $date }
web-ratings = Wertungen
web-no-rated-game = Noch keine gewertete Partie.
web-rated-games = { $count ->
    [one] 1 gewertete Partie: { $won } gewonnen, { $lost } verloren, { $drawn } remis
   *[other] { $count } gewertete Partien: { $won } gewonnen, { $lost } verloren, { $drawn } remis
}
web-solved-of = { $solved } von { $tried } gelöst
web-last-games = Letzte Partien
web-date = Datum
web-opponent = Gegner
web-result = Ergebnis
web-how = wie
web-view = ansehen
web-reason-full = Brett voll
web-reason-left = Partie verlassen
web-reason-cut-short = abgebrochen
web-draw-because = Remis: { $reason }
web-cut-short = Abgebrochen
web-first = Anfang
web-back = zurück
web-move-of = Zug { $move } von { $count }
web-next = weiter
web-last = Ende
web-moves = Züge
web-best = am besten: { $moves }
web-text = Text
web-not-found = Nicht gefunden
web-front-page = Zur Startseite
web-slow-down = Langsamer
web-too-many = Zu viele Anfragen
web-try-again-in = Versuch es in { $seconds } s noch einmal.
web-live = live
web-recorded-game = Die aufgezeichnete Partie
web-live-hint = Das Brett folgt der Partie, während sie gespielt wird (mit JavaScript; sonst die Seite neu laden).
web-play-move = { $move } spielen
web-puzzle-right = Richtig.
web-puzzle-click-column = Dein Zug: klicke eine Spalte an.
web-puzzle-click-point = Dein Zug: klicke einen Schnittpunkt an.
web-puzzle-ringed = (umkreist)
web-puzzle-the-move-was = Der Zug war
web-puzzle-type-it = Oder tippe ihn:
web-puzzle-play = Spielen
web-puzzle-again = Noch einmal versuchen
web-puzzle-unrated = Aufgaben im Netz werden nicht gewertet. Für eine Aufgabenwertung spiele sie im Terminal (z in der Lobby):
web-puzzle-too-many = mehr Züge, als diese Aufgabe hat: fang neu an
web-the-line = Die Folge: { $moves }
web-solution = Die Lösung: { $moves }
web-nothing-here = Unter dieser Adresse ist nichts.
web-store-down = Die Aufzeichnungen sind gerade nicht lesbar: versuch es gleich noch einmal.
web-no-such-leaderboard = Bestenlisten gibt es für connect4 und für gomoku.
web-no-such-player = Kein Spieler hat diesen Namen.
web-no-such-game = Keine Partie hat diese Kennung.
web-unknown-rules = Die Regeln dieser Partie kennt dieser Host nicht.
web-no-such-live = Hier läuft keine Partie mit dieser Nummer: vielleicht ist sie vorbei.
web-live-full = Diese Partie hat schon alle Zuschauer im Netz, die sie haben darf: versuch es später.
web-no-puzzles = Dieser Host hat noch keine Aufgaben (der Admin erstellt sie mit `inarow puzzles build`).
web-puzzle-unshown = Die Aufgabe des Tages lässt sich nicht zeigen.

## Was der Host ungefragt mitteilt

news-invitation-sent = Einladung an { $name } gesendet: sie wartet { $seconds } s auf Antwort
news-not-answered = { $name } hat deine Einladung nicht beantwortet
news-declined = { $name } hat deine Einladung abgelehnt
news-lapsed-other-game = deine Einladung ist verfallen: { $name } hat eine andere Partie begonnen
news-lapsed-no-invitations = deine Einladung ist verfallen: { $name } nimmt jetzt keine Einladungen an
news-lapsed-left = deine Einladung ist verfallen: { $name } ist gegangen
news-game-elsewhere = deine Partie geht auf einem anderen Host weiter: du wirst hingebracht
news-not-started = die Partie auf dem anderen Host hat nicht begonnen
news-opponent-left-early = dein Gegner ist vor Beginn der Partie gegangen
news-host-lost = Der Host deiner Partie ist nicht zurückgekommen: sie ist leider verloren.
news-not-delivered = { $host } hat nicht geantwortet: die Einladung ist nicht angekommen
news-host-silent = Der Host deiner Partie antwortet nicht: suche sie...
replay-line = { $count ->
    [3] drei in einer Reihe
    [4] vier in einer Reihe
    [5] fünf in einer Reihe
    [6] sechs in einer Reihe
   *[other] { $count } in einer Reihe
}
replay-other-left = der andere Spieler ist gegangen
replay-other-idle = der andere Spieler hat nicht mehr gezogen
replay-other-flag = die Zeit des anderen Spielers ist abgelaufen
replay-other-resigned = der andere Spieler hat aufgegeben
welcome-store-down = die Aufzeichnungen sind nicht erreichbar: du spielst als Gast
welcome-linked = Dieser Schlüssel gehört jetzt zu { $name }.
welcome-link-unknown = Verknüpfungscode { $code }: unbekannt oder schon benutzt.
welcome-link-expired = Verknüpfungscode { $code }: der Code ist abgelaufen.
welcome-link-key-taken = Verknüpfungscode { $code }: dieser Schlüssel gehört schon zu einem anderen Konto.
daily-puzzle = { $game }, { $task }
daily-hold = der einzige Zug
daily-win-in = Gewinn in { $count }
daily-win = finde den Gewinn
puzzles-away = die Aufgaben des Hosts sind gerade nicht erreichbar: versuch es später
puzzles-all-tried = keine Aufgabe mehr für dich: du hast alle versucht. Der Host macht mehr mit `inarow puzzles build`.
puzzles-none = dieser Host hat noch keine Aufgaben (der Admin erstellt sie mit `inarow puzzles build`)
puzzles-unshown = diese Aufgabe lässt sich nicht zeigen: versuch die nächste (n)
puzzles-gone = diese Aufgabe gibt es nicht mehr: nicht gewertet
puzzles-not-recorded = nicht aufgezeichnet: die Aufzeichnungen des Hosts sind nicht erreichbar
records-game-unshown = diese Partie lässt sich nicht zeigen
records-not-yours = keine solche Partie unter deinen
records-away = die Aufzeichnungen des Hosts sind gerade nicht erreichbar: versuch es später
records-guest-no-account = Gäste haben kein Konto: verbinde dich mit einem SSH-Schlüssel, um eins zu haben
records-key-removed = Schlüssel entfernt
records-no-such-key = das Konto hat keinen solchen Schlüssel
records-last-key = der letzte Schlüssel eines Kontos lässt sich nicht entfernen
banned-plain = Du bist auf diesem Host gesperrt.
banned-reason = Du bist auf diesem Host gesperrt: { $reason }
banned-for = Du bist auf diesem Host noch etwa { $hours } { $hours ->
    [one] Stunde
   *[other] Stunden
} gesperrt.
banned-for-reason = Du bist auf diesem Host noch etwa { $hours } { $hours ->
    [one] Stunde
   *[other] Stunden
} gesperrt: { $reason }
web-board = Brett: { $game }
analysis-one-at-a-time = eine Analyse nach der anderen: die letzte ist unterwegs
analysis-off = die Analyse ist auf diesem Host abgeschaltet
analysis-busy = der Host analysiert gerade viele Partien: versuch es gleich noch einmal
analysis-cannot = diese Partie lässt sich nicht analysieren (nur Vier Gewinnt 7x6, Gomoku und Renju)
