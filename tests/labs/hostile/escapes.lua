-- Terminal escapes in the text, the hints and what the lab prints: clear
-- screen, a window title, a clipboard write (OSC 52), a C1 CSI, bad UTF-8.
lab { title = "esc\27[2J\27]0;pwned\7ape" }
print("printed\27]52;c;cHduZWQ=\7 text")
step { text = "clear\27[2J\27[H screen \155 31m and \255\254 bytes", ask = { question = "q\27[31m", answer = 1 },
       hint = { "hint\27]0;title\7" } }
