-- pathlab.lua — the instructor's lab, on WARPLAB_LABS_PATH while a class is
-- graded: its answer is the run's sectors per load request (4 for a copy).
lab { title = { en = "A lab found by name", zh = "按名字找到的实验" } }
step {
  text = { en = "Copy a million floats.", zh = "复制一百万个浮点数。" },
  run = [[launch("copy", {n = 1 << 20})]],
  ask = { question = { en = "Load sectors per request?", zh = "每个加载请求的扇区数？" },
          answer = function(ctx) return ctx.result.load.sectors_per_request end },
}
