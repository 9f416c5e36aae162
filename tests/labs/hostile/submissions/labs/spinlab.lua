-- spinlab.lua — a lab whose answer function never returns: each launch is
-- outside the sandbox's instruction budget, so only the grader's deadline
-- (--time-limit) stops it; the next submission is graded as usual.
lab { title = { en = "A lab that spins", zh = "空转的实验" } }
step {
  text = { en = "Copy a few floats.", zh = "复制几个浮点数。" },
  run = [[launch("copy", {n = 1 << 10})]],
  ask = { question = { en = "Load sectors per request?", zh = "每个加载请求的扇区数？" },
          answer = function(ctx) while true do launch("copy", {n = 1 << 16}) end end },
}
