-- tour: how to use warplab, in eight steps. (An instructor's template: a lab
-- is one lab{...} and a step{...} per step; texts are {en=, zh=}; answers are
-- computed from the student's own results; a step may hand the student a
-- kernel to change, with a goal whose parts name what is still missing.)

lab {
  title = { en = "A tour of warplab", zh = "warplab 入门" },
  topics = { "launch", "results", "info", "show", "compare", "sweep", ":edit", ":hint", "help" },
  minutes = 20,   -- about how long a student takes, by its authors' estimate
}

step {
  text = {
    en = [[warplab runs small CUDA kernels and shows what their memory accesses cost. Every experiment is one line of Lua. Type the line below (Tab completes names, even kernel names inside the quotes), or type :run to run it as it is. The result prints itself: the time (measured on a GPU, modelled otherwise), and for loads and stores the 32-byte sectors each warp request touched.]],
    zh = [[warplab 运行小的 CUDA 核函数，并显示它们的内存访问代价。每个实验都是一行 Lua。输入下面这一行（Tab 可以补全名字，连引号里的核函数名也可以），或者输入 :run 原样运行。结果会自己打印出来：时间（在 GPU 上是实测，否则是模型估算），以及每个 warp（本章也叫线程束）请求的读写碰到了多少个 32 字节扇区。]],
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
    { en = "The number before 'sectors/request' on that line.", zh = "那一行里“个扇区”前面的数。" },
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
    { en = "Type r.load.requests, or read the number before 'requests' on the second loads line.", zh = "输入 r.load.requests，或者看“读取”第二行里“个请求”前面的数。" },
  },
  explain = {
    en = [[2^20 threads make 32,768 warps, and each warp runs the load once: 32,768 requests.]],
    zh = [[2^20 个线程组成 32,768 个 warp，每个 warp 执行一次读指令：32,768 个请求。]],
  },
}

step {
  text = {
    en = [[info(name) shows a kernel family: what it teaches, its parameters with their defaults and allowed values, and the CUDA source that was compiled. kernels() lists every family.]],
    zh = [[info(名字) 显示一个核函数族：它教什么、参数的默认值和取值范围，以及编译用的 CUDA 源码。kernels() 列出所有核函数族。]],
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
  hint = { { en = "The percentage at the end of the 'loads' line, or the share of filled cells in the map.", zh = "“读取”一行末尾的百分比，或者图里满格子所占的比例。" } },
  explain = {
    en = [[One float in every four: 25% of what the warp fetched was used. The map shows it as one filled cell in four.]],
    zh = [[每四个 float 用一个：warp 取回的数据只有 25% 被用到。图里每四个格子只有一个是满的。]],
  },
}

step {
  text = {
    en = [[launch(name, {{...}, {...}}) runs one launch per table of parameters and returns them as a list; compare(a, b) puts two results side by side, with b/a for each row and a verdict. On a GPU the verdict weighs each time against its samples' noise; on the model it compares the estimates. Compare a strided launch with the coalesced one.]],
    zh = [[launch(名字, {{...}, {...}}) 对每一组参数各启动一次，并把结果作为列表返回；compare(a, b) 把两个结果并排放在一起，每一行给出 b/a 和一个判定。在 GPU 上，判定会把每个时间与它的采样噪声对比；在模型上比较的是估算值。把一次跨步启动和合并访问的启动比一比。]],
  },
  run = [[rs = launch("strided", {{stride = 1, n = 1 << 20}, {stride = 4, n = 1 << 20}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "How many times as long does stride 4 take as stride 1 (two decimals)?",
                 zh = "步长 4 所用的时间是步长 1 的多少倍（保留两位小数）？" },
    answer = function(ctx)
      local one, four = find(ctx, "strided", {stride = 1}), find(ctx, "strided", {stride = 4})
      return one and four and time_of(four) / time_of(one)
    end,
    tolerance = 0.03, relative = true,
  },
  hint = { { en = "The b/a column of the time row.", zh = "时间那一行的 b/a 一栏。" } },
  claims = {
    { text = "strided n = 2^20: stride 4 touches 4 times the load sectors of stride 1 and takes longer",
      holds = function(ctx)
        local one, four = find(ctx, "strided", {stride = 1}), find(ctx, "strided", {stride = 4})
        return four.load.sectors == 4 * one.load.sectors and time_of(four) > time_of(one)
      end },
  },
  explain = {
    en = [[The time grows less than the sectors: four times the sectors and four times the DRAM bytes, but the launch is small (4 MB), and a part of its time is the fixed cost of any launch. The next step looks at that cost.]],
    zh = [[时间的增长比扇区少：扇区是四倍，DRAM 字节也是四倍，但这次启动很小（4 MB），它的时间有一部分是任何启动都有的固定开销。下一步来看这个开销。]],
  },
}

step {
  text = {
    en = [[sweep(name, params) runs one launch per value of a list (range(a, b) or pow2(a, b)) and prints a table and a chart; y = "bandwidth" picks what the chart shows. Ctrl-C stops it and keeps what was measured. Sweep the size of a copy, from 2^16 to 2^26 floats.]],
    zh = [[sweep(名字, 参数) 对列表里的每个值启动一次（range(a, b) 或 pow2(a, b)），打印一张表和一张图；y = "bandwidth" 选择图里显示什么。Ctrl-C 可以中途停止并保留已测得的结果。把 copy 的大小从 2^16 扫到 2^26 个 float。]],
  },
  run = [[s = sweep("copy", {n = pow2(16, 26), y = "bandwidth"})]],
  ask = {
    question = { en = "From which n on does the copy reach at least half of the best bandwidth in your sweep?",
                 zh = "在你的扫描里，从哪个 n 开始，copy 的带宽至少达到最高带宽的一半？" },
    answer = function(ctx)
      local best = 0
      for _, r in ipairs(ctx.results or {}) do best = math.max(best, bandwidth_of(r)) end
      return extreme(ctx.results, "n", function(r) return r.kernel == "copy" and bandwidth_of(r) >= 0.5 * best end)
    end,
    tolerance = 0,
  },
  hint = { { en = "Read down the GB/s column; the best is near the bottom.", zh = "沿着 GB/s 那一列往下读；最高的在靠近底部的地方。" } },
  claims = {
    { text = "copy: the bandwidth at 2^16 floats is under half the best of the sweep",
      holds = function(ctx)
        local best = 0
        for _, r in ipairs(ctx.results) do best = math.max(best, bandwidth_of(r)) end
        return bandwidth_of(find(ctx.results, {n = 1 << 16})) < 0.5 * best
      end },
  },
  explain = {
    en = [[Every launch pays a fixed cost of a few microseconds before its first load, however little it moves; a copy of 2^16 floats moves half a megabyte and is mostly that cost. Only launches of several megabytes show the memory's bandwidth. Keep that in mind when you read any small launch's time.]],
    zh = [[每次启动在第一次读取之前都要付几微秒的固定开销，不管它搬多少数据；2^16 个 float 的复制只搬半兆字节，时间大部分就是这个开销。只有搬几兆字节以上的启动才能显示出内存的带宽。看任何小启动的时间时都要记住这一点。]],
  },
}

local TOUR_SCALE = {
  name = "tour_scale",
  summary = "the tour: doubles n floats", summary_zh = "入门：把 n 个 float 乘以 2",
  skeleton = [==[
// tour_scale: out[i] = 2 * in[i] for n floats, one thread an element, in
// blocks of 256 threads. Every element is computed once, and correctly, but
// the index is built the wrong way round.
extern "C" __global__ void tour_scale(const float *in, float *out, int n)
{
    long long i = (long long)threadIdx.x * gridDim.x + blockIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}
]==],
  solution = [==[
// tour_scale, fixed: neighbouring lanes take neighbouring elements.
extern "C" __global__ void tour_scale(const float *in, float *out, int n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}
]==],   -- the lab's own, for --check-lab
  params = { n = { default = 1 << 20, min = 256, max = 1 << 26 } },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n end },
              out = { type = "float", count = function(p) return p.n end, output = true } },
  args = { "in", "out", "n" },
  grid = { function(p) return (p.n + 255) // 256 end },
  block = { 256 },
  reference = function(p, b)
    local from, to = b["in"], b.out
    for i = 0, p.n - 1 do to[i] = 2 * from[i] end
  end,
}

step {
  text = {
    en = [[Some steps hand you a kernel to change. tour_scale doubles n floats, and its outputs are right, but its loads touch 32 sectors a request. :edit opens its source in your editor ($VISUAL or $EDITOR); save and quit, and warplab compiles it again and names the line of any error. When you are stuck, :hint gives the next hint; after a missed goal it gives the one that fits what your launch got wrong. Fix the kernel and launch it again.]],
    zh = [[有些步骤会交给你一个核函数去改。tour_scale 把 n 个 float 乘以 2，输出是对的，但它的读请求每个碰到 32 个扇区。:edit 在你的编辑器（$VISUAL 或 $EDITOR）里打开它的源代码；保存并退出后，warplab 会重新编译它，有错误时指出是哪一行。卡住时，:hint 给出下一条提示；目标没有达到时，它给出的是针对你这次启动错在哪里的那一条。修好这个核函数，再启动一次。]],
  },
  kernel = TOUR_SCALE,
  run = [[r = launch("tour_scale"); r]],
  ask = {
    goal = { en = "tour_scale, correct, with 4 sectors per request on its loads and its stores.",
             zh = "tour_scale，结果正确，读和写都是每请求 4 个扇区。" },
    solution = [[r = launch("tour_scale")]],
    needs = { kernel = "tour_scale", correct = true, load_sectors = 4, store_sectors = 4 },
  },
  hint = {
    { en = "Neighbouring lanes of a warp differ in threadIdx.x. In the given index, how far apart does that put their elements?",
      zh = "一个 warp 里相邻的线程 threadIdx.x 不同。按给出的下标，它们的元素相隔多远？", cause = { "load_sectors", "store_sectors" } },
    { en = "Build the index so that threadIdx.x moves it by one: the block's first element, plus threadIdx.x.",
      zh = "把下标改成 threadIdx.x 每加一、下标也只加一：线程块的第一个元素，再加 threadIdx.x。", cause = { "load_sectors", "store_sectors" } },
    { en = "The result names the first wrong element: every element must be computed once, by exactly one thread.",
      zh = "结果里写出了第一个错误的元素：每个元素都必须由恰好一个线程计算一次。", cause = "output" },
    { en = "Run r = launch(\"tour_scale\") after your edit: the goal is judged on your last launch.",
      zh = "改完后运行 r = launch(\"tour_scale\")：目标按你最近的一次启动来判断。", cause = "kernel" },
  },
  claims = {
    { text = "the given tour_scale is correct and touches 32 sectors per load and store request",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.sectors_per_request == 32 and r.store.sectors_per_request == 32
      end },
  },
  explain = {
    en = [[threadIdx.x * gridDim.x puts neighbouring lanes gridDim.x elements apart, a sector each; blockIdx.x * blockDim.x + threadIdx.x puts them side by side, 32 floats in 4 sectors. Every kernel you write in these labs is checked against a reference on every launch, so a fast wrong answer shows. The own-kernel lab goes further with this.]],
    zh = [[threadIdx.x * gridDim.x 让相邻线程相隔 gridDim.x 个元素，各占一个扇区；blockIdx.x * blockDim.x + threadIdx.x 让它们挨在一起，32 个 float 正好 4 个扇区。你在这些实验里写的每个核函数，每次启动都会与参考结果比对，所以又快又错的答案会显示出来。“你自己的核函数”实验会在这方面走得更远。]],
  },
}

step {
  text = {
    en = [[That is the tour. help() gives an overview, help("launch") and the other topics more, explain("sectors_per_request") what a number means, :labs the labs with about how long each takes. Type :next to finish.]],
    zh = [[入门到此结束。help() 给出总览，help("launch") 等主题有更多说明，explain("sectors_per_request") 解释一个数字的含义，:labs 列出所有实验以及每个大约要多长时间。输入 :next 结束。]],
  },
}
