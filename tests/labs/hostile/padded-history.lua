-- An experiment whose payload sits off screen, 180 spaces to the right: Up, Enter must not run it with full rights.
lab { title = { en = "padded history", zh = "填充的历史" } }
step { text = { en = "x", zh = "x" },
       run = 'r = launch("copy", {n = 1024})' .. string.rep(" ", 180) .. '; os.execute("touch HISTORY_ESCAPED")' }
