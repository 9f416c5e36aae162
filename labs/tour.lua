-- tour: how to use warplab, in six steps. (An instructor's template: a lab
-- is one lab{...} and a step{...} per step; texts are {en=, zh=}; answers are
-- computed from the student's own results.)

lab {
  title = { en = "A tour of warplab", zh = "warplab 入门" },
  topics = { "launch", "results", "info", "show", "sweep", "help" },
}

step {
  text = {
    en = [[warplab runs small CUDA kernels and shows what their memory accesses cost. Every experiment is one line of Lua. Type the line below (Tab completes names, even kernel names inside the quotes), or type :run to run it as it is. The result prints itself: the time (measured on a GPU, modelled otherwise), and for loads and stores the 32-byte sectors each warp request touched.]],
    zh = [[warplab 运行小的 CUDA 内核，并显示它们的内存访问代价。每个实验都是一行 Lua。输入下面这一行（Tab 可以补全名字，连引号里的内核名也可以），或者输入 :run 原样运行。结果会自己打印出来：时间（在 GPU 上是实测，否则是模型估算），以及每个 warp 请求的读写碰到了多少个 32 字节扇区。]],
  },
  run = [[launch("copy", {n = 1 << 20})]],
  ask = {
    question = { en = "How many sectors does one load request of copy touch (load sectors per request)?",
                 zh = "copy 的一个读请求碰到多少个扇区（每请求扇区数）？" },
    answer = function(ctx) return ctx.result.load.sectors_per_request end,
    tolerance = 0.01, unit = "sectors/request",
  },
  hint = {
    { en = "Look at the line that starts with 'loads' in the result.", zh = "看结果里以“读取”开头的那一行。" },
    { en = "32 lanes × 4 bytes = 128 bytes, and a sector is 32 bytes.", zh = "32 个线程 × 4 字节 = 128 字节，一个扇区 32 字节。" },
  },
  explain = {
    en = [[A warp of 32 threads each reading one float asks for 128 bytes: exactly 4 sectors when they are consecutive and aligned. That is the ideal every other pattern is compared with.]],
    zh = [[一个 warp 的 32 个线程各读一个 float，一共要 128 字节：连续且对齐时正好 4 个扇区。其他访问模式都拿它作比较。]],
  },
}

step {
  text = {
    en = [[Results are Lua tables. Keep one in a variable and read its fields: r.load.requests, r.load.sectors, r.params.n, r.backend. help("result") lists them all.]],
    zh = [[结果是 Lua 表。把它存进变量，再读它的字段：r.load.requests、r.load.sectors、r.params.n、r.backend。help("result") 列出全部字段。]],
  },
  run = [[r = launch("copy", {n = 1 << 20}); r.load.requests]],
  ask = {
    question = { en = "How many load requests did that launch make?", zh = "这次启动一共发出了多少个读请求？" },
    answer = function(ctx) return ctx.result.load.requests end,
    tolerance = 0,
  },
  hint = {
    { en = "One request per warp per load instruction: n / 32.", zh = "每个 warp 的每条读指令一个请求：n / 32。" },
  },
  explain = {
    en = [[2^20 threads make 32,768 warps, and each warp runs the load once: 32,768 requests.]],
    zh = [[2^20 个线程组成 32,768 个 warp，每个 warp 执行一次读指令：32,768 个请求。]],
  },
}

step {
  text = {
    en = [[info(name) shows a kernel family: what it teaches, its parameters with their defaults and allowed values, and the CUDA source that was compiled. kernels() lists every family.]],
    zh = [[info(名字) 显示一个内核族：它教什么、参数的默认值和取值范围，以及编译用的 CUDA 源码。kernels() 列出所有内核族。]],
  },
  run = [[info("strided")]],
  ask = {
    question = { en = "What is the default of strided's stride parameter?", zh = "strided 的 stride 参数默认值是多少？" },
    answer = 1, tolerance = 0,
  },
  hint = { { en = "Look for the line that starts with 'stride' under parameters.", zh = "在参数列表里找以 stride 开头的那一行。" } },
}

step {
  text = {
    en = [[show(r) draws one warp of a launch: each 128-byte line as four sectors of eight 4-byte cells, the bytes used against the bytes fetched. Try it on a strided launch: every lane reads one float, four floats apart.]],
    zh = [[show(r) 画出一次启动中一个 warp 的访问：每条 128 字节的缓存行分成四个扇区，每个扇区八个 4 字节格子，对比用到的字节和取回的字节。在 strided 上试试：每个线程读一个 float，相隔四个 float。]],
  },
  run = [[r = launch("strided", {stride = 4, n = 1 << 20}); show(r)]],
  ask = {
    question = { en = "What share of the fetched bytes did the loads use, in percent?",
                 zh = "读操作用到了取回字节的百分之多少？" },
    answer = function(ctx) return 100 * ctx.result.load.useful_fraction end,
    tolerance = 1, unit = "%",
  },
  hint = { { en = "Each lane uses 4 of the 16 bytes between it and the next lane.", zh = "每个线程在到下一个线程的 16 字节里只用 4 个。" } },
  explain = {
    en = [[One float in every four: 25% of what the warp fetched was used. The map shows it as one filled cell in four.]],
    zh = [[每四个 float 用一个：warp 取回的数据只有 25% 被用到。图里每四个格子只有一个是满的。]],
  },
}

step {
  text = {
    en = [[sweep(name, params) runs one launch per value of a list (range(a, b) or pow2(a, b)) and prints a table and a chart. Ctrl-C stops it and keeps what was measured.]],
    zh = [[sweep(名字, 参数) 对列表里的每个值启动一次（range(a, b) 或 pow2(a, b)），打印一张表和一张图。Ctrl-C 可以中途停止并保留已测得的结果。]],
  },
  run = [[s = sweep("strided", {stride = pow2(0, 5), n = 1 << 20})]],
  ask = {
    question = { en = "From which stride on does every lane need a sector of its own (32 sectors per request)?",
                 zh = "步长从多少开始，每个线程都要单独一个扇区（每请求 32 个扇区）？" },
    answer = function(ctx)   -- the smallest swept stride at 32 sectors per request, in the student's sweep
      return extreme(ctx.results, "stride", function(r) return r.load.sectors_per_request >= 32 end)
    end,
    tolerance = 0,
  },
  hint = { { en = "A sector holds 8 floats.", zh = "一个扇区能装 8 个 float。" } },
  explain = {
    en = [[At a stride of 8 floats the lanes are 32 bytes apart, one sector each; larger strides cannot do worse than one sector per lane.]],
    zh = [[步长为 8 个 float 时，线程之间相隔 32 字节，每个线程一个扇区；步长再大也不会比每个线程一个扇区更糟。]],
  },
}

step {
  text = {
    en = [[That is the tour. help() gives an overview, help("launch") and the other topics more, explain("sectors_per_request") what a number means, :labs the labs. Type :next to finish.]],
    zh = [[入门到此结束。help() 给出总览，help("launch") 等主题有更多说明，explain("sectors_per_request") 解释一个数字的含义，:labs 列出所有实验。输入 :next 结束。]],
  },
}
