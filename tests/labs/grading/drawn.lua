-- drawn.lua — a lab for tests/labs/grade.sh and bench/grade.lua: each student
-- launches at a stride of their own (random), a question worth 2 points,
-- an assessed question (judged only by --grade), and a choice.
lab { title = { en = "Strides of one's own", zh = "各自的步长" } }

step {
  text = { en = "Each of you copies with a stride of your own.", zh = "每人用自己的步长复制。" },
  run = [[r = launch("strided", {stride = random("stride", 2, 7), n = 1 << 16}); r]],
  ask = { question = { en = "How many load sectors per request does your launch touch?",
                       zh = "你这次启动的每个读取请求触及多少个扇区？" },
          answer = function(ctx) return ctx.result.load.sectors_per_request end, points = 2 },
}

step {
  text = { en = "The same launch, read from DRAM.", zh = "同一次启动，从 DRAM 读取。" },
  ask = { question = { en = "How many bytes does your launch read from DRAM?", zh = "你这次启动从 DRAM 读取多少字节？" },
          answer = function(ctx) return ctx.result.dram.read_bytes end, assessed = true },
}

step {
  text = { en = "Which pattern wastes sectors?", zh = "哪种访问模式浪费扇区？" },
  ask = { question = { en = "Which access pattern fetches sectors it does not use?", zh = "哪种访问模式取来了用不上的扇区？" },
          choices = { { en = "unit stride", zh = "单位步长" }, { en = "stride 2 or more", zh = "步长 2 或更大" },
                      { en = "neither", zh = "都不会" } },
          answer = 2 },
}
