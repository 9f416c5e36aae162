-- evil/pathlab.lua — a student's lab of the same name, which a submission
-- named by its path ("lab": {"name": "evil/pathlab.lua"}): were the grader to
-- load it, every other student's right answer (4) would be graded wrong.
lab { title = { en = "A lab found by name", zh = "按名字找到的实验" } }
step {
  text = { en = "Copy a million floats.", zh = "复制一百万个浮点数。" },
  run = [[launch("copy", {n = 1 << 20})]],
  ask = { question = { en = "Load sectors per request?", zh = "每个加载请求的扇区数？" },
          answer = function(ctx) return 1 end },
}
