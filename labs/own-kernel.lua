-- own-kernel: a kernel the student is given, uncoalesced, and fixes
-- themselves: predict its cost, find the cause in its warp map, rewrite it
-- with :edit until its own launch coalesces, then see where the cost was;
-- then a second first version, a chunk of four floats a thread, coalesced too.

lab {
  title = { en = "Your own kernel", zh = "你自己的核函数" },
  topics = { "kernel{}", ":edit", "coalescing", "warp map", "DRAM" },
  minutes = 35,   -- about how long a student takes, by its authors' estimate
}

-- The kernel of every step: declared from the student's own file once they have one.
local MY_SCALE = {
  name = "my_scale",
  summary = "the own-kernel lab: doubles an n x n matrix", summary_zh = "“你自己的核函数”实验：把 n x n 矩阵乘以 2",
  skeleton = [==[
// my_scale: out = 2 * in, for an n x n matrix of floats stored row by row
// (element (row, col) at row * n + col). One thread an element, in blocks
// of 32 x 8 threads; the grid covers n in x and in y.
extern "C" __global__ void my_scale(const float *in, float *out, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n)
        out[(long long)row * n + col] = 2.0f * in[(long long)row * n + col];
}
]==],
  solution = [==[
// my_scale, fixed: neighbouring lanes take neighbouring columns of one row.
extern "C" __global__ void my_scale(const float *in, float *out, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n)
        out[(long long)row * n + col] = 2.0f * in[(long long)row * n + col];
}
]==],   -- the lab's own, for --check-lab
  params = { n = { default = 1024, min = 32, max = 8192 } },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n * p.n end },
              out = { type = "float", count = function(p) return p.n * p.n end, output = true } },
  args = { "in", "out", "n" },
  grid = { function(p) return (p.n + 31) // 32 end, function(p) return (p.n + 7) // 8 end },
  block = { 32, 8 },
  reference = function(p, b)
    local from, to = b["in"], b.out
    for i = 0, p.n * p.n - 1 do to[i] = 2 * from[i] end
  end,
}

step {
  text = {
    en = [[This lab's kernel is yours to change. my_scale doubles every element of an n × n matrix stored row by row, and it is given to you as many first versions are written: thread (x, y) of the grid takes row x and column y, the way one writes a[row][col]. Look at its source with info("my_scale").source. Before you run it: a warp is 32 threads with neighbouring threadIdx.x. How many 32-byte sectors will one of its load requests touch?]],
    zh = [[这个实验的核函数由你来改。my_scale 把按行存储的 n × n 矩阵的每个元素乘以 2，它就像许多初版那样写成：网格中的线程 (x, y) 处理第 x 行、第 y 列，就像写 a[row][col] 那样。用 info("my_scale").source 看它的源代码。运行之前先想：一个 warp 是 threadIdx.x 相邻的 32 个线程。它的一个读请求会碰到多少个 32 字节的扇区？]],
  },
  kernel = MY_SCALE,
  run = [[r = launch("my_scale"); r]],
  ask = {
    predict = { en = "Load sectors per request of my_scale?", zh = "my_scale 每个读请求的扇区数？" },
    measure = function(ctx) return ctx.result.load.sectors_per_request, ctx.result.model.load.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "the given my_scale, n = 1024: 32 sectors per load and store request, and its outputs are right",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.sectors_per_request == 32.0 and r.store.sectors_per_request == 32.0
      end },
  },
  explain = {
    en = [[32: a sector for every lane. Neighbouring lanes have neighbouring threadIdx.x, so neighbouring rows, and a row is n floats long: their elements are 4n bytes apart, each in a sector of its own, and a request for 128 useful bytes fetches 32 sectors of which it uses 4 bytes each.]],
    zh = [[32：每个线程一个扇区。相邻线程的 threadIdx.x 相邻，也就是相邻的行，而一行有 n 个 float：它们的元素相隔 4n 字节，各在一个扇区里，一个要 128 个有用字节的请求取回 32 个扇区，每个扇区只用 4 个字节。]],
  },
}

step {
  text = {
    en = [[See it in the warp map: show(r, 0) draws warp 0's load and store, lane by lane, with each lane's byte offset in the buffer. Every # is 4 bytes a lane used, every . 4 bytes fetched and not used.]],
    zh = [[在 warp 访问图里看：show(r, 0) 逐个线程画出 warp 0 的读取和写入，以及每个线程在缓冲区里的字节偏移。每个 # 是线程用到的 4 个字节，每个 . 是取回却没有用到的 4 个字节。]],
  },
  kernel = MY_SCALE,
  run = [[r = launch("my_scale"); show(r, 0)]],
  ask = {
    question = { en = "How many bytes apart are the load addresses of lane 0 and lane 1?", zh = "线程 0 和线程 1 的读取地址相隔多少字节？" },
    answer = function(ctx) return 4 * ctx.result.params.n end,
    unit = "bytes",
  },
  hint = {
    { en = "Read the offsets at the start of the load's lines: one line a lane.", zh = "看读取那几行开头的偏移：每个线程一行。" },
    { en = "Lane 1 is row 1: how many floats is a row?", zh = "线程 1 是第 1 行：一行有多少个 float？" },
  },
  claims = {
    { text = "the given my_scale uses an eighth of the bytes its loads fetch (4 of every 32)",
      holds = function(ctx) return ctx.result.load.useful_fraction == 0.125 end },
  },
  explain = {
    en = [[4n bytes: 4,096 at n = 1024, a row of floats. The map has a line for each lane, a sector apiece. The fix is to give neighbouring lanes neighbouring addresses: neighbouring columns of one row.]],
    zh = [[4n 字节：n = 1024 时是 4,096 字节，正好一行 float。访问图里每个线程一行，各占一个扇区。解决办法是让相邻线程访问相邻的地址：同一行里相邻的列。]],
  },
}

step {
  text = {
    en = [[Now fix it. :edit opens my_scale's source in your editor ($VISUAL or $EDITOR); save and quit, and warplab compiles it again and tells you the line of any error. Change it so that a warp's 32 threads take 32 neighbouring elements of one row, then launch it again. Its outputs are checked against a reference on every launch, so a fix that computes the wrong thing shows.]],
    zh = [[现在修改它。:edit 在你的编辑器（$VISUAL 或 $EDITOR）里打开 my_scale 的源代码；保存并退出后，warplab 会重新编译它，有错误时会告诉你在哪一行。把它改成一个 warp 的 32 个线程处理同一行里相邻的 32 个元素，然后再启动一次。每次启动都会把它的输出与参考结果比对，所以算错了的修改会显示出来。]],
  },
  kernel = MY_SCALE,
  run = [[r = launch("my_scale"); r]],
  ask = {
    goal = { en = "my_scale, correct, with 4 sectors per request on its loads and its stores.",
             zh = "my_scale，结果正确，读和写都是每请求 4 个扇区。" },
    solution = [[r = launch("my_scale")]],
    needs = { kernel = "my_scale", correct = true, load_sectors = 4, store_sectors = 4 },
  },
  hint = {
    { en = "threadIdx.x is what differs between neighbouring lanes. Which of row and col should it move?",
      zh = "相邻线程之间不同的是 threadIdx.x。它应该让 row 和 col 中的哪一个变化？", cause = { "load_sectors", "store_sectors" } },
    { en = "Take col from blockIdx.x * blockDim.x + threadIdx.x, and row from the y's. The grid covers n both ways, so nothing else needs to change.",
      zh = "让 col 取 blockIdx.x * blockDim.x + threadIdx.x，row 取 y 方向的那些。网格在两个方向上都覆盖 n，所以别的都不用改。", cause = { "load_sectors", "store_sectors" } },
    { en = "The result names the first wrong element and its expected value. Each element of out is twice the same element of in: out[row * n + col] = 2.0f * in[row * n + col], with the same index on both sides.",
      zh = "结果里写出了第一个错误的元素和它应有的值。`out` 的每个元素是 `in` 中同一个元素的两倍：out[row * n + col] = 2.0f * in[row * n + col]，两边的下标相同。", cause = "output" },
    { en = "Run r = launch(\"my_scale\") after your edit: the goal is judged on your last launch, and it must be of my_scale.",
      zh = "改完后运行 r = launch(\"my_scale\")：目标按你最近的一次启动来判断，而且必须是 my_scale 的启动。", cause = "kernel" },
  },
  claims = {
    { text = "the given my_scale does not meet the goal: 32 sectors per request",
      holds = function(ctx) return ctx.result.load.sectors_per_request > 4 end },
  },
  explain = {
    en = [[With col = blockIdx.x * blockDim.x + threadIdx.x, a warp's 32 lanes read 32 floats of one row, 128 bytes in 4 sectors, and write them the same way: an eighth of the sectors per request of the given version, and every fetched byte used.]],
    zh = [[让 col = blockIdx.x * blockDim.x + threadIdx.x 后，一个 warp 的 32 个线程读同一行的 32 个 float，128 字节正好 4 个扇区，写入也一样：每请求的扇区数是原版本的八分之一，取回的每个字节都用上了。]],
  },
}

step {
  text = {
    en = [[Where was the cost? The given version touched 8 times the sectors of yours. Look at the DRAM line of your result: the bytes read from device memory, for a cold L2.]],
    zh = [[代价在哪里？原来的版本碰到的扇区是你的版本的 8 倍。看你的结果里 DRAM 那一行：冷 L2 时从显存读取的字节数。]],
  },
  kernel = MY_SCALE,
  run = [[r = launch("my_scale"); r]],
  ask = {
    question = { en = "How many times the matrix's 4 × n × n bytes did your kernel read from DRAM?",
                 zh = "你的核函数从 DRAM 读取的字节数是矩阵 4 × n × n 字节的多少倍？" },
    answer = function(ctx) local n = ctx.result.params.n return ctx.result.dram.read_bytes / (4 * n * n) end,
    tolerance = 0.05, unit = "times",
  },
  hint = {
    { en = "r.dram.read_bytes, divided by 4 × n × n.", zh = "r.dram.read_bytes 除以 4 × n × n。" },
  },
  claims = {
    { text = "the given my_scale reads the matrix from DRAM once too (within 1%), with 8 times the load sectors of a coalesced version",
      holds = function(ctx)
        local r, n = ctx.result, ctx.result.params.n
        return math.abs(r.dram.read_bytes / (4 * n * n) - 1) <= 0.01 and r.load.sectors == 8 * (n * n // 8)
      end },
    { text = "the model: the given my_scale's block shares its load sectors through L1 (an eighth of them go on to L2), while every one of its store sectors reaches L2",
      holds = function(ctx)
        local m = launch("my_scale", {n = 1024}).model
        return m.load.sectors == 8 * m.load.l2_sectors and m.store.l2_sectors == m.store.sectors
      end },
    { text = "the given my_scale: L2 serves L1 under half the sectors its loads touch, and takes from L1 at least 0.9 of the sectors its stores touch", gpu = true,
      holds = function(ctx)
        local r = launch("my_scale", {n = 1024})
        local c = r.counters
        return c ~= nil and c.l2_read_sectors.value < 0.5 * r.load.sectors and c.l2_write_sectors.value >= 0.9 * r.store.sectors
      end },
  },
  explain = {
    en = [[Once, and the given version read the matrix once too. Its eight times the sectors were work for L1, not for DRAM: the 8 warps of a 32 × 8 block read 8 neighbouring columns of the same 32 rows, so the sector L1 fetched for one warp held what the other seven wanted, and only an eighth of the load sectors went on to L2 (the model's r.model.load.l2_sectors; on a GPU, counters.l2_read_sectors). The stores cannot share that way: every warp's 32 partial stores go to L2 one by one, eight times the sectors of your version, and L2 merges them into whole sectors before DRAM. That store traffic into L2 is what limits the model's time for the given version (H200 profile). A coalesced kernel gets its bytes in the fewest requests, and leaves the caches for data that is used again.]],
    zh = [[一倍，而原来的版本也只读了一遍矩阵。它多出的 8 倍扇区是 L1 的工作，不是 DRAM 的：一个 32 × 8 线程块的 8 个 warp 读的是同样 32 行里相邻的 8 列，所以 L1 为一个 warp 取回的扇区里正好有另外七个 warp 要的数据，只有八分之一的读扇区继续去了 L2（模型的 r.model.load.l2_sectors；在 GPU 上是 counters.l2_read_sectors）。写入不能这样共享：每个 warp 的 32 个部分写入一个个地送到 L2，扇区数是你的版本的八倍，L2 先把它们合并成完整的扇区再写回 DRAM。原来版本的模型时间（H200 配置）正是受这些写入 L2 的流量限制。合并访问的核函数用最少的请求拿到它的字节，把缓存留给会被复用的数据。]],
  },
}

-- The kernel the student coalesces: each thread copies a chunk of four neighbouring floats.
local CHUNK_COPY = {
  name = "chunk_copy",
  summary = "the own-kernel lab: a copy of n floats, four a thread", summary_zh = "“你自己的核函数”实验：复制 n 个 float，每个线程四个",
  skeleton = [==[
// chunk_copy: out[i] = in[i] for n floats (n a multiple of 4). Each thread
// copies a chunk of four neighbouring floats, in blocks of 256 threads: the
// way one splits work on a CPU.
extern "C" __global__ void chunk_copy(const float *in, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 4; k++) {
        int i = 4 * t + k;
        if (i < n)
            out[i] = in[i];
    }
}
]==],
  solution = [==[
// chunk_copy, interleaved: at each of its four steps the grid covers a
// quarter of the array, neighbouring lanes on neighbouring floats.
extern "C" __global__ void chunk_copy(const float *in, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;
    for (int k = 0; k < 4; k++) {
        int i = t + k * threads;
        if (i < n)
            out[i] = in[i];
    }
}
]==],   -- the lab's own, for --check-lab
  params = { n = { default = 1 << 22, min = 1024, max = 1 << 26 } },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n end },
              out = { type = "float", count = function(p) return p.n end, output = true } },
  args = { "in", "out", "n" },
  grid = { function(p) return (p.n // 4 + 255) // 256 end },
  block = { 256 },
  reference = function(p, b)
    local from, to = b["in"], b.out
    for i = 0, p.n - 1 do to[i] = from[i] end
  end,
}

step {
  text = {
    en = [[A second first version, as common as the first. On a CPU one splits an array into chunks, a chunk of neighbouring elements to each thread. chunk_copy does that on the GPU: each thread copies four neighbouring floats. Run it and look at the useful share of its loads and stores. Then change it with :edit so that every request uses all the bytes of its sectors, keeping four floats a thread and the launch as it is.]],
    zh = [[再来一个同样常见的初版写法。在 CPU 上，人们把数组切成块，每个线程一块相邻的元素。chunk_copy 在 GPU 上也这么做：每个线程复制四个相邻的 float。运行它，看它的读写用到了多少比例的字节。然后用 :edit 修改它，让每个请求都用满它的扇区里的字节，仍然每个线程四个 float，启动方式不变。]],
  },
  kernel = CHUNK_COPY,
  run = [[r = launch("chunk_copy"); r]],
  ask = {
    goal = { en = "chunk_copy, correct, its loads and stores using every byte of their sectors.",
             zh = "`chunk_copy`，结果正确，读和写都用满它们扇区里的每个字节。" },
    solution = [[r = launch("chunk_copy")]],
    needs = { kernel = "chunk_copy", correct = true, useful = 1 },
  },
  hint = {
    { en = "At step k of the loop, how far apart are the floats that neighbouring lanes copy? show(r) draws warp 0's requests.",
      zh = "在循环的第 k 步，相邻通道复制的 float 相隔多远？show(r) 画出 warp 0 的请求。", cause = "useful" },
    { en = "Two ways: at step k let thread t take element t + k × (the grid's thread count), so that each step is one coalesced sweep; or move the chunk as one float4, 16 bytes a lane in a single request.",
      zh = "两种办法：在第 k 步让线程 t 取第 t + k × （网格的线程总数）个元素，这样每一步都是一次合并的扫过；或者把这一块当作一个 float4 一次搬运，每个通道 16 字节，一个请求。", cause = "useful" },
    { en = "The result names the first wrong element: every element from 0 to n - 1 must be copied by exactly one thread. The grid has n / 4 threads.",
      zh = "结果里写出了第一个错误的元素：从 0 到 n - 1 的每个元素都必须由恰好一个线程复制。网格有 n / 4 个线程。", cause = "output" },
    { en = "Run r = launch(\"chunk_copy\") after your edit: the goal is judged on your last launch.",
      zh = "改完后运行 r = launch(\"chunk_copy\")：目标按你最近的一次启动来判断。", cause = "kernel" },
  },
  claims = {
    { text = "the given chunk_copy is correct; its loads and stores touch 16 sectors a request and use a quarter of them",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.sectors_per_request == 16 and r.load.useful_fraction == 0.25 and
               r.store.useful_fraction == 0.25
      end },
    { text = "the model: the given chunk_copy reads each float from DRAM once", 
      holds = function(ctx) return ctx.result.model.dram.read_bytes == 4 * ctx.result.params.n end },
  },
  explain = {
    en = [[Interleaved, each of the four steps is a coalesced sweep: a request's 32 lanes copy 128 neighbouring bytes, 4 sectors, all used. With a float4 each lane moves its 16 bytes in one request of 16 sectors, all used as well, and a quarter of the instructions. The chunked version fetched every sector four times over, once for each of its four steps, and L1 caught the repeats, so DRAM saw each byte once: its cost was four times the requests' sectors through L1, and on the stores, four partial writes to every sector in L2.]],
    zh = [[交错之后，四步中的每一步都是一次合并的扫过：一个请求的 32 个通道复制 128 个相邻字节，4 个扇区，全部用上。用 float4 时，每个通道一次请求搬它的 16 个字节，16 个扇区，也全部用上，指令只有四分之一。分块的写法把每个扇区取了四遍，四步各一遍，L1 接住了重复的读取，所以显存里每个字节只读一次：它的代价是经过 L1 的四倍扇区，以及写入时对 L2 里每个扇区的四次部分写。]],
  },
}
