# inarow 給玩家的文字，繁體中文。歡迎改進翻譯：每種語言一個檔案，
# 訊息代號與 locales/en/inarow.ftl 相同。

## 遊戲與棋子

game-connect4 = 四子棋
game-gomoku = 五子棋
game-renju = 連珠

colour-red = 紅
colour-green = 綠
colour-yellow = 黃
colour-blue = 藍

player-numbered = 玩家 { $number }
player-named = { $name }（{ $colour }）
player-computer = 電腦（{ $level }，{ $colour }）
player-computer-name = 電腦（{ $level }）

## 大廳的遊戲選單

lobby-welcome = 歡迎來到 inarow：四子棋、五子棋和連珠，可以和人對戰，也可以和電腦對弈。
lobby-choose-game = 選擇遊戲：
lobby-connect4-detail = { $width }x{ $height }，四子連線，棋子落下
lobby-gomoku-detail = { $width }x{ $height }，五子連線
lobby-gomoku-exact-detail = { $width }x{ $height }，恰好五子連線
lobby-renju-detail = { $width }x{ $height }，五子；先手禁手：三三、四四、長連
lobby-quick-match = 快速配對
lobby-quick-match-detail = 與下一位想玩這個遊戲的人對弈
lobby-computer = 與電腦對弈
lobby-computer-detail = 選擇難度
lobby-invite = 邀請朋友
lobby-invite-detail = 取得房間代碼給朋友
lobby-rated-invite = 計分邀請
lobby-rated-invite-detail = 給兩位有金鑰的玩家
lobby-back = 返回
lobby-back-detail = 其他遊戲
lobby-quit = 離開

## 對局如何結束

end-line = { $player } 以 { $points } 連線獲勝
end-full = 和棋：棋盤已滿
end-resigned = { $loser } 認輸：{ $winner } 獲勝
end-agreed = 雙方同意和棋
end-flag = { $loser } 超時：{ $winner } 獲勝

## 說明（? 或 F1）

help-title = 說明
help-any-key = 按任意鍵返回。
help-key-menu = 方向鍵、Enter
help-key-bracket = [按鍵]
help-key-click = 點擊
help-key-esc-q = Esc 或 q
help-key-up-down = 上、下
help-key-left-right = 左、右
help-key-arrows = 方向鍵
help-key-typed-point = h8 或 8,h
help-key-puzzle-column = 1-7、方向鍵
help-key-puzzle-point = h8、方向鍵
help-key-the-line = 接著下
help-key-after-game = 對局結束後
help-key-help = ? 或 F1
help-menu = 在選單中移動並選擇
help-bracket = 按括號中的鍵選擇該項
help-esc-back = 返回上一步（清除輸入）
help-lobby-join = 加入朋友的房間：輸入房間代碼
help-lobby-stones = 棋子以表情符號或字母顯示
help-lobby-profile = 個人資料：等級分、對局、重播、金鑰
help-lobby-leaderboard = 各棋類的排行榜
help-lobby-watch = 觀看進行中的對局
help-lobby-online = 誰在線上：邀請對局
help-lobby-puzzles = 實戰題目（計分）
help-lobby-language = 語言：English、Deutsch、繁體中文
help-click-menu = 用滑鼠選擇
help-waiting-stop = 停止等待，回到大廳
help-records-choose = 選擇對局或金鑰；捲動
help-records-replay = 重播所選對局
help-records-step = 重播：一手；排行榜：換棋類
help-records-ends = 重播：第一手與最後一手
help-records-keys = 個人資料：你的金鑰與連結碼
help-records-key-actions = 金鑰：移除所選金鑰；連結碼
help-back = 返回
help-puzzle-column = 四子棋：選一欄，Enter 落子
help-puzzle-point = 五子棋：輸入或移到一點，Enter
help-puzzle-line = 接著下：主機會應對每一手
help-puzzle-next = 題目結束後：下一題、每日一題
help-puzzle-solution = 題目結束後：顯示解答
help-puzzle-back = 回到大廳
help-game-column = 在各欄上方移動棋子
help-game-drop = 落子
help-game-typed-column = 選擇該欄，再按 Enter
help-game-cursor = 移動游標
help-game-place = 落子
help-game-typed-point = 輸入一點（欄、列），再按 Enter
help-game-click = 點擊即落子
help-game-resign = 認輸（會先確認）
help-game-undo = 悔棋
help-game-draw = 提和或接受提和；拒絕
help-game-takeback = 請求悔棋（不計分對局）
help-game-swap2 = Swap2 開局：依畫面選擇
help-game-claim = 要求判勝（無棋鐘，對手久未落子）
help-game-chat = 聊天：Enter 送出，Esc 關閉；/mute
help-game-leave = 離開對局（會先確認：判負）
help-game-after-remote = r 再來一局、l 大廳、q 離開
help-game-quit = 離開（會先確認）
help-game-after-local = r 再來一局、m 選單、q 離開
help-this = 本說明
help-redraw = 重新繪製畫面
help-quit-now = 立即離開

## 規則簡介

rules-connect4 = 四子棋，{ $width }x{ $height }：雙方輪流將棋子投入一欄，棋子落到該欄最低的空格。橫、直或斜連成四子者勝；棋盤下滿則為和棋。
rules-gomoku = 五子棋，{ $width }x{ $height }：雙方輪流在空的交叉點落子。橫、直或斜連成五子者勝，六子以上亦勝。棋盤下滿則為和棋。
rules-gomoku-exact = 五子棋，{ $width }x{ $height }：雙方輪流在空的交叉點落子。橫、直或斜恰好連成五子者勝，六子以上不算。棋盤下滿則為和棋。
rules-renju = 連珠，{ $width }x{ $height }：雙方輪流在空的交叉點落子，連成五子者勝。先手（規則中的「黑棋」，不論顏色）不得下出雙三、雙四或長連（禁手，輪到先手時以 x 標示）；但成五仍勝。後手可下任何位置，五子以上即勝。

## 電腦的棋力

level-easy = 簡單
level-medium = 中等
level-hard = 困難
level-perfect = 完美
level-strong = 強
level-number = 第 { $number } 級
level-c4-easy = 看得到就贏、就擋，其餘隨意
level-c4-medium = 會往前看幾手
level-c4-hard = 近乎完美，偶有失誤
level-c4-perfect = 必勝或必和的棋絕不輸
level-gomoku-1 = 下在棋子附近，看不到四
level-gomoku-2 = 偶爾會擋
level-gomoku-3 = 多半會擋
level-gomoku-4 = 會擋威脅，下看起來最好的
level-gomoku-5 = 往前看兩手
level-gomoku-6 = 往前看三手
level-gomoku-7 = 算殺，想得短
level-gomoku-8 = 算殺，很難贏

## 對局畫面

title-rated = 計分
title-watching = { $count } 人觀戰
title-round = 第 { $round } 局   比分 { $first } : { $second }
players-you = （你）
players-vs = 對
points-how-to-read = (x|y)：欄與列，從左下角由 0 起算
status-your-choice = { $name }：請選擇（見棋盤上方）
status-waiting-choice = 等待 { $name } 選擇...
status-places = { $name } 下一顆{ $colour }子
status-to-move = 輪到 { $player }
status-thinking = { $player } 思考中...
status-waiting = 等待 { $player }...
status-last-move = 上一手 { $point }
field-press-three = 請按 1、2 或 3
field-press-two = 請按 1 或 2
field-move = 落子：
field-hint-column = 方向鍵 + Enter、點擊，或 { $keys }
field-hint-point = 方向鍵 + Enter、點擊，或輸入一點：h8
field-next = 下一手：
field-next-hint = 輪到你時按 Enter 下出
rematch-gone = { $names } 已離開
rematch-asked = 已要求再來一局：等待對方...
rematch-wanted = { $names } 想再來一局：按 r
confirm-leave-abort = 離開對局？雙方尚未都下過，對局將取消。y/n
confirm-leave-lose = 離開對局？你將判負。y/n
confirm-leave = 離開對局？y/n
confirm-resign-for = 替 { $player } 認輸？y/n
confirm-resign-abort = 認輸？雙方尚未都下過，對局將取消。y/n
confirm-resign = 認輸？你將輸掉這局。y/n
resume-hint = 斷線了？以 { $code } 登入，或在大廳輸入 { $code }
web-address = 網頁：{ $url }
verdict-win = 你贏了！
verdict-lost = 你輸了。
verdict-draw = 和棋。
verdict-rating = 等級分 { $change }

## 按鍵列

keys-undo = u 悔棋
keys-claim = w 要求判勝
keys-draw = = 提和
keys-takeback = u 悔棋
keys-chat = Tab 聊天
keys-help = ? 說明
keys-back-to-lobby = q 回大廳
keys-leave = q 離開
keys-resign = ! 認輸
keys-quit = q 離開
after-keys-gone = [a] 分析   [l] 回大廳   [q] 離開
after-keys-remote = [r] 再來一局  [a] 分析  [l] 大廳  [q] 離開
after-keys-remote-undo = [r] 再來一局  [a] 分析  [u] 悔棋  [l] 大廳  [q] 離開
after-keys-local = [r] 再來一局  [a] 分析  [m] 選單  [q] 離開
after-keys-local-undo = [r] 再來一局  [a] 分析  [u] 悔棋  [m] 選單  [q] 離開

## 棋盤上方

swap2-chose = Swap2：{ $name } 選擇執{ $colour }
swap2-place-three = Swap2：請下三子，{ $first }、{ $second }、{ $first }（現在：{ $next }）
swap2-places-three = Swap2：{ $name } 正在下三顆開局子
swap2-choose = Swap2：1 執{ $first }   2 執{ $second }並下一手   3 再下兩子
swap2-chooses = Swap2：{ $name } 正在選擇顏色或再下兩子
swap2-place-two = Swap2：再下兩子，先{ $second }後{ $first }（現在：{ $next }）
swap2-places-two = Swap2：{ $name } 正在再下兩子
swap2-choose-again = Swap2：1 執{ $first }（{ $other } 下一手）   2 執{ $second }並下一手
swap2-chooses-again = Swap2：{ $name } 正在選擇顏色
opponent-away = { $name } 斷線了，等待 { $seconds } 秒...
claim-due = { $name } 很久沒有落子：按 w 要求判勝
declined-draw = { $name } 拒絕和棋：繼續下
declined-takeback = { $name } 拒絕悔棋：繼續下
offer-draw-to-me = { $name } 提和：= 接受   - 拒絕
offer-takeback-to-me = { $name } 請求悔棋：= 同意   - 拒絕
offer-draw-watched = { $from } 向 { $to } 提和
offer-takeback-watched = { $from } 請 { $to } 讓他悔棋
offer-draw-mine = 你已提和：等待 { $to }
offer-takeback-mine = 你已請求悔棋：等待 { $to }

## 對局中的訊息

not-your-turn = 還沒輪到你：輪到 { $player }
forbidden-point = { $point } 是{ $colour }方（先手）的禁手：{ $why }
forbidden-double-three = 雙三
forbidden-double-four = 雙四
forbidden-overline = 長連
illegal-over = 對局已結束
illegal-column-full = 第 { $column } 欄已滿
illegal-occupied = { $point } 已有棋子
illegal-off-board = { $point } 不在棋盤上
illegal-not-landing = 投入第 { $column } 欄的棋子會落在 { $lands }，不是 { $asked }
watching-keys = 你正在觀戰：按 q 回大廳
you-stay = 你留在對局中
you-play-on = 繼續下
nothing-to-take-back = 沒有可悔的棋
swap2-choose-with-three = 請按 1、2 或 3 選擇（見棋盤上方）
swap2-choose-with-two = 請按 1 或 2 選擇（見棋盤上方）
minus-no-offer = - 是拒絕對方的請求，目前沒有等你回覆的請求
no-takebacks-rated = 計分對局不能悔棋
you-left-no-rematch = 你已離開這局：無法再來一局
opponent-left-no-rematch = 對手已離開：無法再來一局
key-does-nothing = 「{ $key }」在這裡沒有作用：請用下方列出的按鍵
claim-clock = w 只能在無棋鐘的對局要求判勝：這裡由棋鐘決定
claim-computer = w 是對久不落子的人要求判勝：電腦一定會下
claim-shared = w 是對久不落子的人要求判勝：共用鍵盤時不適用
claim-your-move = 輪到你下：只有對手讓你久等時才能用 w
claim-early = 對手一段時間沒落子後，才能要求判勝
game-moved-carried = 你的對局已移到另一台主機：你的這一手會一起帶過去

## 對局聊天

chat-muted-watchers = 本局其他觀眾的訊息已隱藏（/unmute 恢復）
chat-muted-opponent = 本局對手的訊息已隱藏（/unmute 恢復）
chat-unmuted = 訊息已恢復顯示
chat-commands = 聊天指令：/mute 與 /unmute
chat-say = 說：
chat-at-most = 最多 { $count } 個字
chat-enter-sends = Enter 送出，Esc 關閉
chat-title = 聊天
chat-title-watchers = 觀眾聊天
chat-muted-mark = （已靜音）
chat-tab-to-say = 按 Tab 發言
pane-moves = 棋譜（{ $count } 手）

## 對局結束的原因

reason-line = 連線
reason-full = 和棋：棋盤已滿
reason-resigned = 認輸
reason-agreed = 協議和棋
reason-flag = 超時
reason-stopped = 已取消：{ $reason }
why-left = 離開了
why-disconnected = 中斷連線
why-lost-connection = 斷線了
why-idle = 太久未動作
why-idle-for = { $seconds } 秒未動作
why-shutdown = 主機正在關閉
why-replaced = 已從別處重新連線
why-resigned = 認輸
why-computer-failed = 電腦出錯
end-forfeit = { $loser } { $why }：{ $winner } 不戰而勝
end-aborted = 對局已取消：{ $reason }
end-aborted-early = { $player } 在雙方都下子之前{ $why }

## 拒絕的原因

refusal-no-such-level = 電腦在{ $game }沒有這個難度：請從清單中選擇
refusal-invitations-per-minute = 每分鐘最多 { $count } 個邀請：請稍候
refusal-host-did-not-answer = { $host } 沒有回應：請再試一次
refusal-room-host-did-not-answer = 房間 { $code } 的伺服器沒有回應：請再試一次
refusal-game-did-not-start = { $host } 沒有回應：對局沒有開始
refusal-not-understood = 這台主機看不懂這個請求
refusal-shutting-down = 主機正在關閉
refusal-game-not-offered = 這裡不提供這種棋
refusal-player-left = 該玩家已離開
refusal-no-invitations = { $name } 不接受邀請
refusal-playing = { $name } 正在對局：請稍後再試
refusal-watching = { $name } 正在觀戰：請稍後再試
refusal-hosting = { $name } 正在等朋友：請稍後再試
refusal-invited-already = 你已邀請過 { $name }：請等待回覆
refusal-too-many-invitations = 最多只能同時有 { $count } 個邀請等待：請等待回覆
refusal-many-invitations-waiting = { $name } 有很多邀請在等待：請稍後再試
refusal-invitation-closed = 這個邀請已失效
refusal-no-longer-free = { $name } 已經不能對局了
refusal-has-left = { $name } 已離開
refusal-friend-left = 你的朋友已離開
refusal-game-ended = 這局已結束：請選擇其他對局
refusal-private = 這局不公開：對局者不允許觀戰
refusal-you-left = 你已離開
refusal-at-another-table = 你在另一桌
refusal-no-seat = 這局沒有你的位子
refusal-room-playing = 房間 { $code } 已經開始對局：請向朋友要新的代碼
refusal-no-such-room = 沒有代碼為 { $code } 的房間：請和朋友確認
refusal-cannot-run = 存在 NATS 中的對局無法由這台主機進行
refusal-game-moved = 你的對局已移到另一台主機：請再下一次
refusal-host-not-answering = 你的對局所在的主機沒有回應：請稍後再下

## 棋桌的回覆

table-choose-side-first = 請先選邊：1、2 或 3（見棋盤上方）
table-no-side-to-choose = 現在不用選邊
table-stones-placed = 棋子已擺好：請選擇先手或後手
table-not-during-swap2 = Swap2 開局期間不行
table-computer-plays-on = 電腦不接受和棋，繼續下
table-takeback-with-u = 對電腦時按 u 悔棋
table-offer-waiting = 你的請求正在等待回覆
table-answer-first = 請先回覆對手的請求
table-no-move-to-take-back = 你沒有可以悔的棋
table-opening-stays = 開局的棋子不能悔
table-offered-already = 這一手你已經提出過請求：請繼續下
table-no-offer = 沒有需要回覆的請求
table-undo-computer-only = 只有對電腦時才能悔棋
table-game-over = 這局已結束
rules-in-a-line = 連 { $count } 子
rules-exactly = 恰好 { $count } 子

## 大廳的其他項目

lobby-join = 加入朋友
lobby-join-detail = 輸入朋友給你的房間代碼
lobby-name = 更改名稱
lobby-colour = 你的顏色
lobby-profile = 個人資料
lobby-profile-detail = 等級分、對局、重播
lobby-leaderboard = 排行榜
lobby-watch = 觀戰
lobby-watch-detail = 進行中的對局
lobby-online = 誰在線上
lobby-online-detail = 邀請別人對局
lobby-stones = 棋子
lobby-stones-detail = 表情符號或字母
lobby-stones-now = 目前：{ $theme }
lobby-puzzles = 題目
lobby-puzzles-detail = 取自實戰的局面
lobby-language = 語言
lobby-language-detail = English、Deutsch、繁體中文
lobby-waiting-here = { $count } 人等待配對
first-who = 誰先下
first-random = 隨機決定
first-you = 你
first-computer = 電腦
levels-question = 與電腦下{ $game }：要多強？
colour-question = 你的顏色（對手沒選走時才給你）：
colour-any = 都可以
colour-any-detail = 每局隨機決定顏色
name-question = 大家要怎麼稱呼你？
name-field = 名稱：
name-enter-keeps = 按 Enter 保留 { $name }
join-question = 朋友的房間代碼：
join-field = 代碼：
join-type-code = 請輸入朋友給你的房間代碼
not-a-choice = 「{ $key }」不是選項：請按括號中的鍵
field-keys = Enter 確認，Esc 返回，Ctrl-C 離開
menu-keys = 方向鍵 + Enter，或按括號中的鍵；Esc 返回；? 說明
header-you-are = 你是 { $name }
header-counts = { $online } 人在線，{ $playing } 人對局中
header-waiting = { $count } 人在等{ $game }
header-degraded = 部分功能暫時無法使用：目前連不上其他主機
header-daily = 每日一題：{ $puzzle }

## 等待快速配對

seek-looking = 正在尋找{ $game }對手... { $seconds } 秒
seek-offer-computer = 還沒有人來。先和電腦下一局嗎？
seek-keep-waiting = 繼續等待
seek-esc = 按 Esc 停止尋找
seek-nearest = 另有 { $count } 人在等，最接近的等級分 { $rating }：
seek-pairing-reach = 配對範圍擴大到 ±{ $window } 時配對（{ $seconds } 秒後）。
seek-pairing-reach-now = 配對範圍擴大到 ±{ $window } 時配對（隨時）。
seek-pairing-anyone = 配對範圍開放給所有人時配對（{ $seconds } 秒後）。
seek-pairing-anyone-now = 配對範圍開放給所有人時配對（隨時）。
seek-others-far = 另有 { $count } 人在等，但等級分目前與你相差太多：
seek-widening = 目前配對範圍 ±{ $window }，{ $seconds } 秒後開放給所有人。
seek-next-person = 下一位想玩這個遊戲的人就是你的對手。

## 朋友的房間

room-title = 你和朋友的{ $game }房間
room-code = 房間代碼：
room-how-to-join = 請朋友在大廳選「{ $join }」並輸入代碼，
room-or-connect = 或用這個指令連線：{ $command }
room-watchers-on = 觀戰：允許別人觀戰（w：不公開）
room-watchers-off = 觀戰：這局不公開（w：允許觀戰）
room-clock = 棋鐘：{ $clock }（c：更改）
room-opening = 開局：{ $opening }（o：更改）
room-waiting = 等待你的朋友...
room-opening-room = 正在開房間...
room-esc = 按 Esc 關閉房間
clock-none = 不計時
opening-standard = 一般（先手先下）
opening-swap2 = Swap2（先擺三子，再選邊）

## 進行中的對局

games-asking = 進行中的對局：正在詢問大廳...
games-none = 進行中的對局：目前沒有
games-to-watch = 進行中的對局：{ $count } 局可觀戰
games-game = 棋類
games-players = 對局者
games-moves = 手數
games-watching = 觀戰
games-keys = 方向鍵選擇，Enter 觀戰，r 重新整理，Esc 返回；? 說明

## 誰在線上、邀請

people-asking = 誰在線上：正在詢問大廳...
people-title = 線上 { $count } 人
people-counts = 大廳 { $lobby }，配對中 { $seeking }，對局中 { $playing }，觀戰 { $watching }
people-name = 名稱
people-short-connect4 = 四子棋
people-short-gomoku = 五子棋
people-short-renju = 連珠
people-doing = 狀態
people-that-is-you = 那是你自己：請選別人
people-rated-who = 計分對局限兩位有金鑰的玩家，且用標準棋盤
people-swap2-games = Swap2 只適用於五子棋與連珠
people-how = 方向鍵選擇對象，Enter 邀請
people-keys-on = Enter 邀請，i 邀請（開），r 重新整理，Esc 返回
people-keys-off = Enter 邀請，i 邀請（關），r 重新整理，Esc 返回
doing-lobby = 在大廳
doing-seeking = 正在找{ $game }對手
doing-hosting = 在等朋友
doing-playing = 對局中
doing-watching = 觀戰中
doing-on-host = 在 { $host }
doing-no-invitations = 不接受邀請
invite-title = 邀請 { $name } 對局
invite-game = [g] 棋類：{ $value }
invite-rated-field = [r] 計分：{ $value }
invite-clock = [c] 棋鐘：{ $value }
invite-opening = [o] 開局：{ $value }
invite-casual-only = 不計分（計分限兩位有金鑰的玩家、標準棋盤）
invite-rated = 計分
invite-casual = 不計分
invite-wait = 對方有 { $seconds } 秒可以回覆。
invite-keys = Enter 送出邀請，Esc 返回
invitation-title = 邀請
invitation-from = { $name } 邀請你對局：
invitation-swap2 = Swap2 開局
invitation-keys = [y] 接受   [n] 拒絕
invitation-more = 之後還有 { $count } 個邀請
invitation-lapses = { $seconds } 秒內未回覆即失效。

## inarow play：開局前的問題

setup-title = 連線棋
setup-new-game = 新對局
setup-which-game = 玩哪種棋？
setup-who-plays = 誰來下？
setup-how-strong = 電腦要下多強？
setup-your-name = 你叫什麼名字？
setup-player-name = 玩家 { $number } 叫什麼名字？
setup-pick-colour = { $name }，請選顏色：
setup-who-starts = 誰先下？
setup-vs-computer = 與電腦對弈
setup-two-players = 雙人對弈
setup-two-players-detail = 共用這個鍵盤
setup-the-computer = 電腦
setup-vs-computer-level = 與電腦對弈（{ $level }）
setup-vs-computer-short = 與電腦對弈
setup-two-players-short = 雙人對弈
setup-name-taken = { $name } 已被使用：請換一個名稱
setup-menu-keys = 方向鍵 + Enter 或按括號中的鍵；Esc 返回；q 離開

## 終端機太小

small-title = 終端機太小：
small-enlarge = 請放大到 { $width }x{ $height }
small-now = （目前 { $width }x{ $height }）
small-keys-wait = 按鍵會等到畫面夠大再生效。
small-keys = Ctrl-L 重畫，Ctrl-C 離開

## 個人資料、金鑰與排行榜

records-loading-profile = 正在載入你的個人資料...
records-loading-game = 正在載入對局...
records-loading-keys = 正在載入你的金鑰...
records-loading = 載入中...
records-keys-back = Esc 返回
records-keys-profile = ↑↓（或 , .）+ Enter 重播對局   [k] 金鑰   Esc 返回
records-keys-keys = 方向鍵   [d] 移除金鑰   [g] 連結碼   Esc 返回
records-keys-leaderboard = 方向鍵：換棋類、捲動   Esc 返回
records-guest = 你目前以訪客身分對局。用 SSH 金鑰連線，主機就會替你保留名稱、等級分與對局紀錄。
records-yourname = 你的名稱@
records-for-example = 例如：
records-profile-of = { $name } 的個人資料
records-rating = { $rating } ± { $deviation }   { $won } 勝 { $lost } 負 { $drawn } 和
records-no-rated-games = 尚無計分對局
records-puzzle-rating = { $rating } ± { $deviation }   解出 { $solved } / { $tried }
records-no-puzzles = 尚未做過：在大廳按 [z]
records-no-games = 尚無對局。
records-last-games = 你最近的 { $count } 局：
outcome-won = 勝
outcome-lost = 負
outcome-draw = 和
outcome-aborted = 取消
records-keys-title = 你的 SSH 金鑰與連結碼
records-link-code = 連結碼：
records-link-how = 在另一台電腦上，用它自己的金鑰連線：
records-link-once = 十分鐘內連線一次，該金鑰就會加入這個帳號。
records-link-offer = [g] 取得連結碼，以加入另一台電腦的金鑰。
records-rating-head = 等級分
records-games-head = 局數
records-nobody = 還沒有人。
records-rows = 第 { $first }-{ $last } 名，共 { $count } 名
records-not-listed = 你（{ $rating }）還不在榜上：需要{ $requirement }。
records-to-appear = 上榜條件：{ $requirement }，並使用 SSH 金鑰。

## 重播與分析

review-does-not-fit = 這份分析不符合這局棋
review-keys-done = 方向鍵：一手   n/p：下一個/上一個失誤   Esc 返回
review-keys-waiting = 方向鍵：一手   Home/End：第一手/最後一手   Esc 返回
review-keys = 方向鍵：一手   Home/End   a 分析   Esc 返回
review-press-a = 按 a 分析
review-analysing = 正在分析這局棋...
review-no-analysis = 無法分析：{ $why }
review-won = { $name } 勝：{ $reason }
review-move-of = 第 { $move } 手，共 { $count } 手
review-best-marked = 最佳：{ $moves }（以 * 標示）
review-guess-marked = 推測：{ $moves }（以 * 標示）
value-not-settled = 未定
value-draw = 和
value-win-in = 勝（{ $value }）
value-loss-in = 負（{ $value }）
value-win = 勝
value-loss = 負
label-best = 最佳
label-slower = 較慢
label-mistake = 失誤
label-blunder = 大失誤
label-missed-win = 錯失勝機
label-allowed-win = 讓對方有勝機
summary-no-mistakes = 沒有失誤
summary-blunders = { $count } 個大失誤（第 { $moves } 手）
summary-mistakes = { $count } 個失誤（第 { $moves } 手）
summary-slower = { $count } 手較慢（第 { $moves } 手）
summary-missed-wins = { $count } 次錯失勝機（第 { $moves } 手）
summary-allowed-wins = { $count } 次讓對方有勝機（第 { $moves } 手）
summary-best = { $count } 手最佳（第 { $moves } 手）

## 題目

puzzle-answers = { $colour }方應 { $move }
puzzle-keys-column = 1-7 或方向鍵，Enter：你的一手   Esc：大廳   ? 說明
puzzle-keys-point = 方向鍵 + Enter 或輸入一點（h8）   Esc：大廳   ? 說明
puzzle-keys-over = n 下一題   d 每日一題   s 解答   Esc 大廳
puzzle-keys-lobby = Esc：大廳
puzzle-finding = 正在找題目...
puzzle-daily = 每日一題
puzzle-title = 題目
puzzle-rating = 難度 { $rating }
puzzle-yours = 你的 { $rating }
puzzle-unrated = 不計分
puzzle-task-hold = 找出唯一不輸的一手
puzzle-task-win-in = 找出致勝的一手（{ $count } 步勝）
puzzle-task-fours = 以連續衝四取勝（{ $count } 手成五）
puzzle-task-win = 找出致勝的一手
puzzle-to-move = 輪{ $colour }方下
puzzle-your-move-typed = 你的一手：{ $typed }
puzzle-your-move = 你的一手
puzzle-solved = 解出了！
puzzle-the-line = 變化：{ $moves }
puzzle-loses = { $move } 會輸
puzzle-not-the-move = { $move } 不是正解
puzzle-not-solved = 未解出
puzzle-answers-marked = { $colour }方應 { $move }（已標示）
puzzle-looking = 主機正在找應手...
puzzle-best = 最佳：{ $move }
puzzle-rating-change = 你的解題等級分：{ $before } -> { $after }（{ $change }）
puzzle-repeat = 做過了：不再計分
puzzle-guest-unrated = 不計分：訪客沒有解題等級分
puzzle-solution = 解答：{ $moves }
puzzle-broken = 這道題無法繼續

## 輸入一手

move-hint-point = 輸入一點，如 h8 或 8,h
move-columns = A-{ $last } 或 1-{ $count }
move-points = 欄 a-{ $last }，列 1-{ $rows }
move-empty = 請輸入一手
move-unknown-column = 沒有「{ $text }」這一欄：請用 { $range }
move-off-board = 「{ $text }」不在棋盤上：{ $range }
move-not-understood = 看不懂「{ $text }」：{ $hint }
refusal-own-room = 這是你自己的房間：請把代碼給朋友
refusal-you-play-there = 你就在這局對局中
refusal-invite-yourself = 不能邀請自己
refusal-name-reserved = 這個名稱保留給電腦：請換一個
refusal-name-taken = { $name } 已被使用：你的名稱是 { $given }
refusal-full-of-watchers = 這局觀戰人數已滿（{ $count }）：請選擇其他對局
refusal-resume-over = 這局已結束：這個代碼無法再回到對局

## 連線本身的通知

input-dropped = 一次輸入太多：部分按鍵被略過。
idle-warning = { $seconds } 秒後將中斷連線：請按任意鍵。
chat-off = 這台主機已關閉聊天
chat-slow-down = 慢一點：每分鐘最多 { $count } 則訊息（請等 { $seconds } 秒）
chat-too-long = 太長了：最多 { $count } 個字
name-owned = { $name } 是其他玩家的名稱
name-too-soon = 名稱每分鐘只能改一次：請 { $seconds } 秒後再試
refused-host-full = 伺服器已滿（上限 { $limit } 個連線）
refused-per-address = 來自你的位址的連線太多（上限 { $limit } 個）
name-invalid-empty = 名稱不能是空的
name-invalid-unshowable = 這個名稱含有無法顯示的字元（控制、跳脫或不可見字元）
name-invalid-too-long = 這個名稱有 { $columns } 欄寬；最多 { $max } 欄
name-invalid-spaces = 名稱不能以空格開頭或結尾，也不能有連續兩個空格
name-invalid-not-composed = 這個名稱的重音符號沒有組合（Unicode NFC）：請把每個字母打成一個字元
name-invalid-no-letters = 名稱至少要有一個字母或數字
name-invalid-reserved = 這個名稱保留給電腦
name-unavailable = 目前無法更改名稱
name-registered = { $name } 是已註冊玩家的名稱：請換一個
login-no-room-account = 沒有代碼為 { $code } 的房間：你以帳號名稱進行對局
login-no-room-registered = 沒有代碼為 { $code } 的房間，而且 { $code } 是已註冊玩家的名稱
login-no-room-unchecked = 沒有代碼為 { $code } 的房間，目前也無法檢查它能否當作名稱

## 網頁

web-languages = 語言
web-leaderboard-of = { $game }排行榜
web-play-in-terminal = 在終端機裡下棋：
web-counts = { $online } 人在線 · { $playing } 人對局中
web-games-in-play = 進行中的對局
web-no-games = 目前沒有進行中的對局。
web-daily-how = ——在這裡下，或在終端機大廳按 z。
web-leaderboards = 排行榜
web-nobody-qualifies = 還沒有人上榜：需要五局計分對局，且等級分已穩定。
web-player = 玩家
web-rating-history = 等級分變化
web-playing-since = 自 { $date } 開始下棋
web-ratings = 等級分
web-no-rated-game = 尚無計分對局。
web-rated-games = { $count } 局計分對局：{ $won } 勝 { $lost } 負 { $drawn } 和
web-solved-of = 解出 { $solved } / { $tried }
web-last-games = 最近的對局
web-date = 日期
web-opponent = 對手
web-result = 結果
web-how = 方式
web-view = 查看
web-reason-full = 棋盤下滿
web-reason-left = 離開對局
web-reason-cut-short = 中途取消
web-draw-because = 和棋：{ $reason }
web-cut-short = 中途取消
web-first = 第一手
web-back = 上一手
web-move-of = 第 { $move } 手，共 { $count } 手
web-next = 下一手
web-last = 最後
web-moves = 棋譜
web-best = 最佳：{ $moves }
web-text = 文字
web-not-found = 找不到
web-front-page = 回首頁
web-slow-down = 請放慢
web-too-many = 請求太多
web-try-again-in = 請 { $seconds } 秒後再試。
web-live = 直播
web-recorded-game = 對局紀錄
web-live-hint = 棋盤會隨對局即時更新（需 JavaScript；否則請重新整理頁面）。
web-play-move = 下 { $move }
web-puzzle-right = 正確。
web-puzzle-click-column = 輪到你：點選一欄。
web-puzzle-click-point = 輪到你：點選一個交叉點。
web-puzzle-ringed = （已圈出）
web-puzzle-the-move-was = 正解是
web-puzzle-type-it = 或直接輸入：
web-puzzle-play = 下
web-puzzle-again = 再試一次
web-puzzle-unrated = 網頁上的題目不計分。想累積解題等級分，請在終端機裡做題（大廳按 z）：
web-puzzle-too-many = 步數超過這道題：請重新開始
web-the-line = 變化：{ $moves }
web-solution = 解答：{ $moves }
web-nothing-here = 這個網址沒有內容。
web-store-down = 目前無法讀取紀錄：請稍後再試。
web-no-such-leaderboard = 排行榜只有 connect4 與 gomoku。
web-no-such-player = 沒有這個名稱的玩家。
web-no-such-game = 沒有這個代號的對局。
web-unknown-rules = 這台主機不認得這局的規則。
web-no-such-live = 這裡沒有這個編號的進行中對局：可能已經結束了。
web-live-full = 這局的網頁觀眾已滿：請稍後再試。
web-no-puzzles = 這台主機還沒有題目（管理員可用 `inarow puzzles build` 產生）。
web-puzzle-unshown = 無法顯示每日一題。

## 主機主動告知的訊息

news-invitation-sent = 已邀請 { $name }：等待回覆 { $seconds } 秒
news-not-answered = { $name } 沒有回覆你的邀請
news-declined = { $name } 拒絕了你的邀請
news-lapsed-other-game = 你的邀請已失效：{ $name } 開始了另一局
news-lapsed-no-invitations = 你的邀請已失效：{ $name } 目前不接受邀請
news-lapsed-left = 你的邀請已失效：{ $name } 已離開
news-game-elsewhere = 你的對局改在另一台主機進行：正在帶你過去
news-not-started = 另一台主機上的對局沒有開始
news-opponent-left-early = 對手在開局前離開了
news-host-lost = 你的對局所在的主機沒有回來：很抱歉，這局已經遺失。
news-not-delivered = { $host } 沒有回應：邀請沒有送達
news-host-silent = 你的對局所在的主機沒有回應：正在尋找...
replay-line = 連成 { $count } 子
replay-other-left = 對方離開了
replay-other-idle = 對方不再落子
replay-other-flag = 對方超時
replay-other-resigned = 對方認輸
welcome-store-down = 無法存取紀錄：以訪客身分對局
welcome-linked = 這把金鑰已連結到 { $name }。
welcome-link-unknown = 連結碼 { $code }：不存在或已使用過。
welcome-link-expired = 連結碼 { $code }：已過期。
welcome-link-key-taken = 連結碼 { $code }：這把金鑰已屬於其他帳號。
daily-puzzle = { $game }：{ $task }
daily-hold = 唯一的一手
daily-win-in = { $count } 步勝
daily-win = 找出勝著
puzzles-away = 目前無法取得主機的題目：請稍後再試
puzzles-all-tried = 沒有你還沒做過的題目了。主機可用 `inarow puzzles build` 產生更多。
puzzles-none = 這台主機還沒有題目（管理員可用 `inarow puzzles build` 產生）
puzzles-unshown = 無法顯示這道題：請試下一題（n）
puzzles-gone = 這道題已不存在：不計分
puzzles-not-recorded = 未記錄：主機的紀錄目前無法存取
records-game-unshown = 無法顯示這局
records-not-yours = 你的對局中沒有這一局
records-away = 目前無法存取主機的紀錄：請稍後再試
records-guest-no-account = 訪客沒有帳號：用 SSH 金鑰連線即可擁有帳號
records-key-removed = 金鑰已移除
records-no-such-key = 這個帳號沒有這把金鑰
records-last-key = 帳號的最後一把金鑰不能移除
banned-plain = 你已被這台主機封鎖。
banned-reason = 你已被這台主機封鎖：{ $reason }
banned-for = 你已被這台主機封鎖，約還有 { $hours } 小時。
banned-for-reason = 你已被這台主機封鎖，約還有 { $hours } 小時：{ $reason }
web-board = { $game }棋盤
analysis-one-at-a-time = 一次只能分析一局：上一個分析正在進行
analysis-off = 這台主機已關閉分析功能
analysis-busy = 主機正在分析許多對局：請稍後再試
analysis-cannot = 這局無法分析（只支援標準 7x6 四子棋、五子棋與連珠）
