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
player = { $name }（{ $colour }）
player-computer = 電腦（{ $level }，{ $colour }）

## 大廳的遊戲選單

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
