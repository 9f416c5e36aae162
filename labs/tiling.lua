-- tiling: a 2-D convolution read straight from global memory against one
-- that stages a tile and its halo in shared memory; what the halo, the bank
-- layout and the SM's limits make of tile sizes 8, 16 and 32 (the chapter's
-- experiment 2); and the tiled matrix multiply. It opens with the chapter's
-- temporal-reuse example (the reuse family).

lab {
  title = { en = "Tiling: halos, tile sizes, matrix multiply",
            zh = "分块：带边缘区的卷积、分块大小、矩阵乘法" },
  topics = { "reuse", "tiling", "shared memory", "halo", "tile size", "bank conflicts", "occupancy", "matrix multiply" },
  minutes = 45,   -- about how long a student takes, by its authors' estimate
}

-- The naive launch of the same size as `tiled` (same sizes, radius, tile).
local function naive_like(ctx, tiled)
  if not tiled then return nil end
  local p = tiled.params
  if tiled.kernel == "conv2d" then
    return find(ctx, "conv2d", { variant = "naive", width = p.width, height = p.height, radius = p.radius, tile = p.tile })
  end
  return find(ctx, "matmul", { variant = "naive", m = p.m, n = p.n, k = p.k, tile = p.tile })
end

-- Warps in a conv2d launch: blocks of tile x tile threads over the image.
local function conv_warps(r)
  local p = r.params
  return ((p.width + p.tile - 1) // p.tile) * ((p.height + p.tile - 1) // p.tile) * ((p.tile * p.tile + 31) // 32)
end

step {
  text = {
    en = [[The chapter's example of temporal locality: each thread of a 256-thread block loads one element into shared memory, the block synchronises, and then each thread sums ten neighbours, shared[(tid + i) % 256]. Every element loaded from global memory is used ten times on chip. The reuse family runs it (variant = "shared") and, for comparison, the same sums read from global memory each time (variant = "global"): one load instruction per use. Run both.]],
    zh = [[本章讲时间局部性的例子：256 个线程的线程块里，每个线程把一个元素读进共享内存，线程块同步，然后每个线程累加十个邻居 `shared[(tid + i) % 256]`。从全局内存读来的每个元素在片上被用十次。reuse 族运行它（variant = "shared"），并且为了比较，也运行每次都从全局内存读的同样求和（variant = "global"）：每用一次就是一条读指令。两个都运行。]],
  },
  run = [[rs = launch("reuse", {{variant = "global"}, {variant = "shared"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "How many times as many global load sectors does reading global memory for every use cost (global sectors ÷ shared sectors)?",
                 zh = "每用一次都读全局内存，全局读取的扇区数是只读一次的多少倍（global 的扇区数 ÷ shared 的扇区数）？" },
    answer = function(ctx)
      local global, shared = find(ctx, "reuse", { variant = "global" }), find(ctx, "reuse", { variant = "shared" })
      if global and shared and global.params.reuse == shared.params.reuse and global.params.n == shared.params.n then
        return global.load.sectors / shared.load.sectors
      end
    end,
    tolerance = 0.02, relative = true,
  },
  hint = {
    { en = "The 'load sectors' row of the compare() table, or rs[1].load.sectors / rs[2].load.sectors.",
      zh = "看 compare() 表里“读取扇区数”那一行，或者算 `rs[1].load.sectors / rs[2].load.sectors`。" },
    { en = "It is not just the ten uses: look at the global variant's sectors per request. Where does the window t + i start?",
      zh = "不只是用了十次：看 global 版本的每请求扇区数。窗口 t + i 从哪里开始？" },
  },
  claims = {
    { text = "reuse 10: the global variant makes exactly 10 times the load requests of the shared one, and 12 times the sectors (within 1%)",
      holds = function(ctx)
        local global, shared = ctx.results[1].load, ctx.results[2].load
        return global.requests == 10 * shared.requests and math.abs(global.sectors / shared.sectors - 12) <= 0.12
      end },
    { text = "reuse 10 (2^21 floats, cold L2): both variants read the same DRAM bytes within 5%", gpu = true,
      holds = function(ctx)
        local global, shared = ctx.results[1].dram.read_bytes, ctx.results[2].dram.read_bytes
        return math.abs(global - shared) <= 0.05 * shared
      end },
  },
  explain = {
    en = [[12 at the defaults: 3,145,728 sectors against 262,144. Ten load instructions per thread instead of one, and eight of the ten windows t + i start inside a sector, so they touch 5 sectors instead of 4 (4.80 a request). DRAM reads are the same for both, because L1 and L2 catch the repeats; what the shared copy saves is the load instructions and the L1/L2 traffic, for 1 KB of shared memory a block and a __syncthreads(). That is the pattern of this whole lab: load a piece of data once into shared memory and use it many times.]],
    zh = [[默认参数下是 12 倍：3,145,728 个扇区对 262,144 个。每个线程十条读指令而不是一条，而且十个窗口 t + i 中有八个从扇区中间开始，要碰 5 个扇区而不是 4 个（每请求 4.80 个）。两者的 DRAM 读取一样，因为 L1 和 L2 接住了重复的读取；共享内存副本省下的是读指令和 L1/L2 流量，代价是每个线程块 1 KB 共享内存和一次 __syncthreads()。这就是整个实验的模式：把一份数据读进共享内存一次，然后多次使用。]],
  },
}

-- The kernel the student tiles: a window of seven neighbours, loaded from global memory for every use.
local WINDOW7 = {
  name = "window7",
  summary = "the tiling lab: sums of seven neighbours", summary_zh = "分块实验：七个相邻元素之和",
  skeleton = [==[
// window7: out[i] = in[i] + in[i + 1] + ... + in[i + 6] for n outputs; in
// holds n + 6 floats. One thread an output, in blocks of 256 threads. Every
// input is loaded from global memory by seven threads.
extern "C" __global__ void window7(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k < 7; k++)
            sum += in[i + k];
        out[i] = sum;
    }
}
]==],
  solution = [==[
// window7, tiled: the block loads its 256 + 6 inputs into shared memory once,
// then each thread sums its seven from there.
extern "C" __global__ void window7(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 6];
    int first = blockIdx.x * blockDim.x;
    for (int k = threadIdx.x; k < blockDim.x + 6; k += blockDim.x)
        if (first + k < n + 6)
            tile[k] = in[first + k];
    __syncthreads();
    int i = first + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k < 7; k++)
            sum += tile[threadIdx.x + k];
        out[i] = sum;
    }
}
]==],   -- the lab's own, for --check-lab
  params = { n = { default = 1 << 20, min = 256, max = 1 << 24 } },
  -- whole numbers below 1,000: any order of the seven adds gives the same float
  buffers = { ["in"] = { type = "float", count = function(p) return p.n + 6 end, fill = function(i) return (i * 7919) % 1000 end },
              out = { type = "float", count = function(p) return p.n end, output = true } },
  args = { "in", "out", "n" },
  grid = { function(p) return (p.n + 255) // 256 end },
  block = { 256 },
  reference = function(p, b)
    local from, to = b["in"], b.out
    for i = 0, p.n - 1 do
      local sum = 0
      for k = 0, 6 do sum = sum + from[i + k] end
      to[i] = sum
    end
  end,
}

step {
  text = {
    en = [[Now write the reuse yourself. window7 sums seven neighbours, out[i] = in[i] + ... + in[i + 6], and loads every input from global memory once for each of the seven threads that use it. Run it and read its loads line and the store line: how many load requests does it make for each store request? Then rewrite it with :edit so that each block loads its inputs into shared memory once, synchronises, and sums from there. A block of 256 outputs needs 256 + 6 inputs: the six past its end are its halo.]],
    zh = [[现在自己写出这种复用。window7 对七个相邻元素求和，out[i] = in[i] + ... + in[i + 6]，每个输入被用到它的七个线程各从全局内存读一次。运行它，看它的读取和写入两行：每个写请求对应多少个读请求？然后用 :edit 改写它，让每个线程块把自己的输入读进共享内存一次，同步，再从那里求和。一个 256 个输出的线程块需要 256 + 6 个输入：末尾多出的六个就是它的边缘区（halo，本章的说法）。]],
  },
  kernel = WINDOW7,
  run = [[r = launch("window7"); r]],
  ask = {
    goal = { en = "window7, correct, through shared memory, with at most 2 global load requests for each store request.",
             zh = "`window7`，结果正确，经由共享内存，每个写请求对应的全局读请求至多 2 个。" },
    solution = [[r = launch("window7")]],
    needs = { kernel = "window7", correct = true, shared = true, loads_per_store = 2 },
  },
  hint = {
    { en = "Each output needs seven inputs, and neighbouring outputs share six of them. Which memory lets the threads of a block share what one of them loaded?",
      zh = "每个输出要七个输入，相邻的输出共用其中六个。哪种内存能让线程块里的线程共享其中一个线程读进来的数据？", cause = { "loads", "shared" } },
    { en = "Declare __shared__ float tile[256 + 6]. The block's inputs start at blockIdx.x * blockDim.x; a loop k = threadIdx.x, k += blockDim.x, while k < blockDim.x + 6, copies them, the last few lanes taking the halo in a second round.",
      zh = "声明 `__shared__ float tile[256 + 6]`。本线程块的输入从 blockIdx.x * blockDim.x 开始；用循环 k = threadIdx.x，k += blockDim.x，条件 k < blockDim.x + 6，把它们拷进去，最后几个线程在第二轮拷边缘区。", cause = { "loads", "shared" } },
    { en = "The result names the first wrong element. Call __syncthreads() after the copy and before any thread reads the tile, and keep the copy within the n + 6 inputs.",
      zh = "结果里写出了第一个错误的元素。在拷贝之后、任何线程读分块之前调用 __syncthreads()，并让拷贝不超出 n + 6 个输入。", cause = "output" },
    { en = "Run r = launch(\"window7\") after your edit: the goal is judged on your last launch.",
      zh = "改完后运行 r = launch(\"window7\")：目标按你最近的一次启动来判断。", cause = "kernel" },
  },
  claims = {
    { text = "the given window7 is correct and makes 7 load requests for each store request",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.requests == 7 * r.store.requests
      end },
    { text = "the given window7 reads each input from DRAM about once (within 2% of 4 bytes an input): L1 and L2 catch its repeats", gpu = true,
      holds = function(ctx)
        local r = ctx.result
        return math.abs(r.dram.read_bytes / (4 * (r.params.n + 6)) - 1) <= 0.02
      end },
  },
  explain = {
    en = [[With the tile each warp makes one load request, and warp 0 of each block one more for the halo: 9 requests for a block's 8 stores, 1.125 each, against 7. The shared loads take over the other uses, conflict-free, since the seven reads of a warp each cover 32 consecutive words. DRAM reads were about the same before (L1 and L2 caught the repeats): what the tile saves is requests and sectors into L1, and the time they take. A larger window or a 2-D stencil shares more, which is where the next steps go.]],
    zh = [[有了分块，每个 warp 只发一个读请求，每个线程块的 warp 0 再为边缘区多发一个：一个线程块 8 个写请求对应 9 个读请求，每个写请求 1.125 个，原来是 7 个。其余的使用改由共享内存读取来承担，而且没有冲突，因为一个 warp 的七次读取各覆盖 32 个连续的字。原来的 DRAM 读取量也差不多（L1 和 L2 接住了重复的读取）：分块省下的是请求、送进 L1 的扇区，以及它们花的时间。更大的窗口或二维模板计算共享得更多，接下来的几步就讲这个。]],
  },
}

step {
  text = {
    en = [[The chapter's convolution: a (2r+1) x (2r+1) filter slides over a 1024 x 1024 float image, one thread per output pixel, 16 x 16 threads a block. With radius r = 2 every output sums 25 neighbours. The naive kernel reads each neighbour from global memory, so every pixel of the image is asked for 25 times, once by each output that covers it. The chapter passes the 25 weights as a pointer into global memory; warplab's kernel keeps them in constant memory instead: all lanes of a warp read the same weight at the same moment, which the constant cache serves in one pass, so the image's loads are the only global loads. Predict first: how many global load requests does one warp of the naive kernel make?]],
    zh = [[本章的卷积：一个 (2r+1) x (2r+1) 的滤波器在 1024 x 1024 的 float 图像上滑动，每个输出像素一个线程，每个线程块 16 x 16 个线程。半径 r = 2 时，每个输出要累加 25 个邻居。朴素核函数从全局内存读取每个邻居，所以图像里的每个像素都被要 25 次，覆盖它的每个输出各要一次。教材把 25 个权重作为指向全局内存的指针传进来；warplab 的核函数则把它们放在常量内存里：一个 warp 的所有线程在同一时刻读同一个权重，常量缓存一次就能服务，因此图像的读取是唯一的全局读取。先预测：朴素核函数的一个 warp 发出多少个全局读请求？]],
  },
  run = [[naive = launch("conv2d", {variant = "naive"}); naive]],
  ask = {
    predict = { en = "Global load requests per warp, naive, radius 2?", zh = "朴素核函数、半径 2 时，每个 warp 的全局读请求数？" },
    measure = function(ctx)
      local r = ctx.result
      return r.load.requests / conv_warps(r), r.model.load.requests / conv_warps(r)
    end,
    unit = "requests/warp",
  },
  explain = {
    en = [[25: one request per tap, (2r+1)^2 of them. Neighbouring outputs share 24 of their 25 neighbours, and the naive kernel asks for them all again. Whatever L1 catches of that reuse, each request still goes through the load path. That repeated asking is what a tile removes.]],
    zh = [[25 个：每个滤波器抽头一个请求，共 (2r+1)^2 个。相邻的两个输出有 24 个邻居是共用的，朴素核函数却全部重新要一遍。不管 L1 接住了多少这种复用，每个请求都要走一遍读取通路。分块消除的正是这种重复的请求。]],
  },
}

step {
  text = {
    en = [[The tiled kernel first copies everything its block's outputs need into shared memory: the 16 x 16 pixels of its tile plus a halo of r = 2 pixels on every side, a 20 x 20 region. Thread t copies region elements t, t + 256, ... so that each round is one warp instruction over consecutive elements. After __syncthreads() every tap reads shared memory. Run both variants as one list and compare them.]],
    zh = [[分块核函数先把本线程块的输出需要的数据全部拷进共享内存：分块本身的 16 x 16 个像素，加上四周各 r = 2 个像素的边缘区，一共 20 x 20 的区域。线程 t 拷贝区域里的第 t、t + 256……个元素，这样每一轮都是一条 warp 指令、拷贝连续的元素。__syncthreads() 之后，每个抽头都从共享内存读取。把两个版本作为一个列表一起运行并比较。]],
  },
  run = [[rs = launch("conv2d", {{variant = "naive"}, {variant = "tiled"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "How many times fewer global load requests does the tiled kernel make (naive requests ÷ tiled requests)?",
                 zh = "分块核函数的全局读请求少了多少倍（朴素的请求数 ÷ 分块的请求数）？" },
    answer = function(ctx)
      local tiled = find(ctx, "conv2d", { variant = "tiled" })
      local naive = naive_like(ctx, tiled)
      if naive then return naive.load.requests / tiled.load.requests end
    end,
    tolerance = 0.02, relative = true,
  },
  hint = {
    { en = "Divide the two 'requests' figures on the loads lines (or rs[1].load.requests / rs[2].load.requests).",
      zh = "用两个结果 “读取”行里的 requests 相除（或者 rs[1].load.requests / rs[2].load.requests）。" },
    { en = "Naive: 25 requests per warp. Tiled: a block copies 400 floats in rounds of 256 threads, 8 + 5 warp instructions for its 8 warps.",
      zh = "朴素：每个 warp 25 个请求。分块：一个线程块用 256 个线程分轮拷贝 400 个 float，它的 8 个 warp 一共 8 + 5 条 warp 指令。" },
  },
  claims = {
    { text = "conv2d at the defaults: tiled makes over 10 times fewer global load requests than naive",
      holds = function(ctx) return ctx.results[1].load.requests > 10 * ctx.results[2].load.requests end },
  },
  explain = {
    en = [[About 15.4 at the defaults: 819,200 requests against 53,248. A block of 8 warps copies its region in 13 warp instructions, 1.6 a warp, where the naive warp made 25. Per output pixel the tiled kernel copies (16+4)^2 / 16^2 = 1.56 floats from global memory instead of reading 25: the chapter's "each tile is loaded once and reused" in numbers.]],
    zh = [[默认参数下约 15.4 倍：819,200 个请求对 53,248 个。一个有 8 个 warp 的线程块用 13 条 warp 指令拷完它的区域，平均每个 warp 1.6 条，而朴素核函数每个 warp 要 25 条。按每个输出像素算，分块核函数从全局内存拷贝 (16+4)^2 / 16^2 = 1.56 个 float，而不是读取 25 个：这就是本章所说“每个分块加载一次、反复使用”的具体数字。]],
  },
}

step {
  text = {
    en = [[Print both results and look at their loads lines: the tiled kernel's sectors per request are higher than the naive one's (6.86 against 5.57 at the defaults). Its region is 20 floats wide, so the 32 consecutive region elements one copy instruction takes cover pieces of two or three image rows, each piece starting anywhere in a sector.]],
    zh = [[把两个结果都打印出来，看它们的 “读取”行：分块核函数的每请求扇区数比朴素核函数高（默认参数下 6.86 对 5.57）。它的区域每行 20 个 float，所以一条拷贝指令拿的 32 个连续区域元素落在图像的两三行上，每一段都可能从扇区中间开始。]],
  },
  run = [=[rs = launch("conv2d", {{variant = "naive"}, {variant = "tiled"}}); rs[1], rs[2]]=],
  ask = {
    question = { en = "So does the tiled kernel move more data between the SMs and L2 than the naive one?",
                 zh = "那么，分块核函数在 SM 和 L2 之间搬运的数据比朴素核函数多吗？" },
    choices = {
      { en = "Yes: more sectors per request means more traffic.", zh = "是：每请求扇区数更多，流量就更多。" },
      { en = "No: it makes so many fewer requests that its total sectors are far fewer.",
        zh = "不是：它的请求少得多，扇区总数也就少得多。" },
      { en = "The same: both read the image once.", zh = "一样：两者都只读一遍图像。" },
    },
    answer = function(ctx)
      local tiled = find(ctx, "conv2d", { variant = "tiled" })
      local naive = naive_like(ctx, tiled)
      if naive then return tiled.load.sectors < naive.load.sectors and 2 or 1 end
    end,
  },
  hint = {
    { en = "Traffic is requests × sectors per request: compare the 'sectors' figures, not the ratios.",
      zh = "流量 = 请求数 × 每请求扇区数：比较扇区总数，而不是比值。" },
  },
  claims = {
    { text = "conv2d tiled loads over 10 times fewer sectors than naive, though more per request",
      holds = function(ctx)
        local naive, tiled = ctx.results[1].load, ctx.results[2].load
        return naive.sectors > 10 * tiled.sectors and tiled.sectors_per_request > naive.sectors_per_request
      end },
    { text = "conv2d at 1024 x 1024 (cold L2): tiled and naive read the same DRAM bytes within 10%", gpu = true,
      holds = function(ctx)
        local naive, tiled = ctx.results[1].dram.read_bytes, ctx.results[2].dram.read_bytes
        return math.abs(naive - tiled) <= 0.1 * naive
      end },
  },
  explain = {
    en = [[No: 365,508 sectors against 4,563,472 at the defaults, 12.5 times fewer. Sectors per request grade the shape of each request; the traffic is their product with the requests. DRAM is another matter: the 4 MB image fits in L2, so with a cold L2 both kernels read it from DRAM once (4.2 MB each). Here tiling saves the L1 and L2 traffic and the load instructions, not DRAM bytes.]],
    zh = [[不是：默认参数下 365,508 个扇区对 4,563,472 个，少了 12.5 倍。每请求扇区数衡量的是每个请求的形状；流量是它和请求数的乘积。DRAM 是另一回事：4 MB 的图像放得进 L2，所以在冷 L2 下两个核函数都只从 DRAM 读它一次（各 4.2 MB）。在这里分块省下的是 L1 和 L2 的流量以及读指令，而不是 DRAM 字节。]],
  },
}

step {
  text = {
    en = [[The halo is the price of a tile: a block copies (tile + 2r)^2 floats to produce tile^2 outputs, and the border pixels it copies are copied again by its neighbours. Sweep the tile side over 8, 16 and 32 (blocks of 64, 256 and 1,024 threads). The same count holds in three dimensions: the chapter's 8 x 8 x 8 tile with one pixel of halo on each side, shared[10][10][10], copies 1,000 floats for 512 outputs.]],
    zh = [[边缘区是分块的代价：一个线程块拷贝 `(tile + 2r)^2` 个 float，只产出 `tile^2` 个输出，它拷贝的边界像素还会被相邻的线程块再拷一次。把分块边长扫过 8、16 和 32（线程块分别是 64、256 和 1,024 个线程）。三维也是同样的算法：本章那个 8 x 8 x 8、每边 1 个像素边缘区的分块，shared[10][10][10]，为 512 个输出拷贝 1,000 个 float。]],
  },
  run = [[s = sweep("conv2d", {variant = "tiled", tile = {8, 16, 32}})]],
  ask = {
    question = { en = "At tile 8, how many floats does the kernel copy from global memory per output pixel?",
                 zh = "tile = 8 时，核函数为每个输出像素从全局内存拷贝多少个 float？" },
    answer = function(ctx)
      local r = find(ctx, "conv2d", { variant = "tiled", tile = 8 })
      if r then return r.load.bytes / 4 / (r.params.width * r.params.height) end
    end,
    tolerance = 0.01, unit = "floats/pixel",
  },
  hint = {
    { en = "(tile + 2r)^2 / tile^2 with r = 2.", zh = "`(tile + 2r)^2 / tile^2`，r = 2。" },
    { en = "Or from the result: the load bytes (s[1].load.bytes) / 4 / the pixels.", zh = "也可以从结果算：读取字节数（s[1].load.bytes）/ 4 / 像素数。" },
  },
  explain = {
    en = [[2.25: 144 floats for 64 outputs. At tile 16 it is 1.56, at 32 1.27: the halo's share falls about as 4r/tile. Small tiles spend most of their copying on the border; that is the chapter's "with too small a tile the overhead dominates". Against the 25 reads of the naive kernel, every tile size is still a large saving.]],
    zh = [[2.25：为 64 个输出拷贝 144 个 float。tile = 16 时是 1.56，tile = 32 时是 1.27：边缘区所占的比例大约按 `4r/tile` 下降。小分块的拷贝大部分花在边界上，这就是本章说的“分块太小，开销占比大”。与朴素核函数的 25 次读取相比，每种分块大小都仍然省了很多。]],
  },
}

step {
  text = {
    en = [[The chapter also says a tile size should not cause bank conflicts. Shared memory has 32 banks of 4 bytes; a warp's shared load takes as many passes (wavefronts) as the most distinct words any one bank must deliver. The region's rows are tile + 2r words long: 12, 20 or 36. Run the sweep again with the conflicts as the chart.]],
    zh = [[本章还说，分块大小不应引起存储体冲突。共享内存有 32 个 4 字节的存储体；一个 warp 的共享内存读取需要的遍数（wavefront）等于任何一个存储体需要提供的不同字的最大个数。区域每行有 `tile + 2r` 个字：12、20 或 36。再跑一次扫描，这次图表显示冲突数。]],
  },
  run = [[s = sweep("conv2d", {variant = "tiled", tile = {8, 16, 32}, y = "bank_conflicts"})]],
  ask = {
    question = { en = "Which tile size reads its shared region without bank conflicts?", zh = "哪种分块大小读取共享区域时没有存储体冲突？" },
    choices = {
      { en = "8", zh = "8" }, { en = "16", zh = "16" }, { en = "32", zh = "32" }, { en = "all three", zh = "三种都没有" },
    },
    answer = function(ctx)
      local free, count = nil, 0
      for i, tile in ipairs({ 8, 16, 32 }) do
        local r = find(ctx, "conv2d", { variant = "tiled", tile = tile })
        if not r then return nil end
        if r.shared_load.bank_conflicts == 0 then free, count = i, count + 1 end
      end
      return count == 3 and 4 or free
    end,
  },
  hint = {
    { en = "A warp is 32 threads: how many rows of threads is that at tile 8, 16 and 32?",
      zh = "一个 warp 是 32 个线程：在 tile = 8、16、32 时分别是几行线程？" },
    { en = "At tile 16 the two rows of a warp read words 20 apart: a..a+15 and a+20..a+35. Which banks do a+32..a+35 use?",
      zh = "tile = 16 时一个 warp 的两行读取的字相隔 20：a..a+15 和 a+20..a+35。a+32..a+35 用的是哪些存储体？" },
  },
  claims = {
    { text = "conv2d tiled, radius 2: tile 32 has no shared-load bank conflicts, tiles 8 and 16 one per request",
      holds = function(ctx)
        local t32, t16, t8 = find(ctx.results, {tile = 32}), find(ctx.results, {tile = 16}), find(ctx.results, {tile = 8})
        return t32.shared_load.bank_conflicts == 0 and t16.shared_load.bank_conflicts == t16.shared_load.requests
           and t8.shared_load.bank_conflicts == t8.shared_load.requests
      end },
  },
  explain = {
    en = [[Only 32: one warp is one row of threads reading 32 consecutive words, one per bank. A tile-16 warp holds two thread rows whose words are 20 apart, so the second row's last four words wrap onto the first row's banks: every tap takes two wavefronts. Tile 8 puts four rows 12 words apart in a warp, and the fourth wraps onto the first: two wavefronts again. Padding fixes it, because every tap of a warp reads the same shape (its rows, shifted together): what matters is where the rows start, the pitch modulo 32. Rows 24 floats apart (tile 8) start at banks 0, 24, 16 and 8, four disjoint groups of 8; rows 48 apart (tile 16) start at 0 and 16. Both are conflict-free for all 25 taps, at the cost of a region 24 or 48 floats wide instead of 12 or 20. A block of {32, 8} threads does it without padding: a warp is one row of 32. warplab's conv2d has no pitch parameter, so the profiler's conflict count is how you see it; the chapter's advice stands: check a tile shape's conflicts, then pad or reshape.]],
    zh = [[只有 32：一个 warp 就是一行线程，读取 32 个连续的字，每个存储体一个。tile = 16 的一个 warp 有两行线程，它们读的字相隔 20，第二行的最后四个字绕回到第一行用过的存储体上：每个抽头都要两个 wavefront。tile = 8 的一个 warp 有四行，相隔 12 个字，第四行绕回到第一行：同样是两个 wavefront。填充能解决它，因为一个 warp 的每个抽头读的形状都一样（它的几行一起平移）：关键是各行从哪里开始，也就是行宽对 32 取模。行宽 24 个 float（tile = 8）时，四行从第 0、24、16、8 个存储体开始，是四组互不重叠的 8 个；行宽 48（tile = 16）时两行从 0 和 16 开始。两者对全部 25 个抽头都没有冲突，代价是区域每行 24 或 48 个 float，而不是 12 或 20。{32, 8} 的线程块不用填充也能做到：一个 warp 就是一行 32 个线程。warplab 的 conv2d 没有行宽参数，所以要靠性能分析工具的冲突计数看到它；本章的建议依然成立：先检查一种分块形状的冲突，再填充或改变形状。]]
  },
}

step {
  text = {
    en = [[The chapter's other trade-off: a larger tile uses more shared memory and can lower occupancy. Count it for your GPU, ${device} (compute capability ${cc}): an SM holds at most ${sm_threads} threads, ${sm_blocks} blocks and ${sm_shared_kib} KB of shared memory, and has 65,536 registers; a block has at most 1,024 threads. A tile-32 block at radius 2 is 1,024 threads with a 36 x 36 float region, 5,184 bytes; a tile-8 block is 64 threads with 576 bytes.]],
    zh = [[本章的另一个权衡：分块越大，用的共享内存越多，可能降低占用率。按你的 GPU ${device}（计算能力 ${cc}）算一算：一个 SM 最多容纳 ${sm_threads} 个线程、${sm_blocks} 个线程块和 ${sm_shared_kib} KB 共享内存，有 65,536 个寄存器；一个线程块最多 1,024 个线程。半径 2 时，tile = 32 的线程块有 1,024 个线程和 36 x 36 个 float 的区域，5,184 字节；tile = 8 的线程块有 64 个线程，576 字节。]],
  },
  ask = {
    question = { en = "What limits how many tile-32 blocks (radius 2) an SM of ${device} can run at once?",
                 zh = "是什么限制了 ${device} 的一个 SM 同时能运行多少个 tile = 32（半径 2）的线程块？" },
    choices = {
      { en = "Shared memory: 5,184 bytes a block fill the ${sm_shared_kib} KB quickly.", zh = "共享内存：每个线程块 5,184 字节，很快就占满 ${sm_shared_kib} KB。" },
      { en = "Threads: blocks of 1,024 soon reach the SM's ${sm_threads} (and registers can cut that further).",
        zh = "线程数：1,024 线程的线程块很快就达到 SM 的 ${sm_threads} 上限（寄存器还可能让它更少）。" },
      { en = "The limit of ${sm_blocks} blocks per SM.", zh = "每个 SM 最多 ${sm_blocks} 个线程块的限制。" },
      { en = "The 32 banks of shared memory.", zh = "共享内存的 32 个存储体。" },
    },
    answer = 2,
  },
  hint = {
    { en = "Each limit allows some number of blocks on one SM. Work out that number for each of them: the smallest is the one that binds.",
      zh = "每一种限制都允许一个 SM 放一定数量的线程块。对每一种限制算出这个数：最小的那个就是起作用的限制。" },
    { en = "Shared memory: ${sm_shared_kib} KB ÷ the bytes a block uses. Threads: ${sm_threads} ÷ the threads a block has. Blocks: ${sm_blocks}.",
      zh = "共享内存：${sm_shared_kib} KB ÷ 每个线程块用的字节数。线程：${sm_threads} ÷ 每个线程块的线程数。线程块数：${sm_blocks}。" },
  },
  explain = {
    en = [[Threads: ${blocks_of_1024} block(s) of 1,024 fill the ${sm_threads} threads of an SM of ${device}, while their 5,184 bytes each leave most of its ${sm_shared_kib} KB of shared memory free. On the H200, two blocks fill the SM's 2,048 threads while their regions use 10 KB of the 228. Tile 8 reaches 2,048 threads too (32 blocks of 64), and tile 16 with 8 blocks of 256. So on the H200 at radius 2 every tile size can fill an SM, and shared memory is not what stops it. Registers can: 65,536 registers over 2,048 threads is 32 each. A kernel that needs more leaves a tile-32 SM with one block, half the occupancy, while smaller blocks lose a block's worth at a time. Shared memory becomes the limit with a large halo or many channels; the exercises lab has the chapter's question on that.]],
    zh = [[是线程数：${blocks_of_1024} 个 1,024 线程的线程块就占满了 ${device} 的一个 SM 的 ${sm_threads} 个线程，而每个线程块的 5,184 字节只占它 ${sm_shared_kib} KB 共享内存的一小部分。在 H200 上，两个线程块就占满了 SM 的 2,048 个线程，而它们的区域只用了 228 KB 中的 10 KB。tile = 8 也能达到 2,048 个线程（32 个 64 线程的线程块），tile = 16 用 8 个 256 线程的线程块。所以在 H200 上、半径 2 时，每种分块大小都能把 SM 填满，卡住它的不是共享内存。寄存器可能会：65,536 个寄存器分给 2,048 个线程，每个线程 32 个。一个需要更多寄存器的核函数，在 tile = 32 时每个 SM 只能放一个线程块，占用率减半；较小的线程块每次只损失一个线程块的份额。边缘区很大或每个像素的分量很多时，共享内存才成为限制；exercises 实验里有本章关于这一点的题目。]],
  },
}

step {
  text = {
    en = [[Now the chapter's experiment 2 in full: both variants at tile 8, 16 and 32, with the time as the chart. On a GPU the times are measured. The image is 4 MB against the ${l2_mib} MiB L2 of ${device}: where it fits, as on the H200's 60 MiB, they time L1, L2 and shared memory rather than DRAM. On the sim backend they are the model's estimate, which counts sectors, wavefronts and instructions, and knows the occupancy that threads, blocks and shared memory allow but nothing of registers.]],
    zh = [[现在完整地做本章的实验 2：两个版本各用 tile = 8、16 和 32，图表显示时间。在 GPU 上时间是实测的。图像只有 4 MB，而 ${device} 的 L2 是 ${l2_mib} MiB：放得下时（比如在 H200 的 60 MiB 里），测的是 L1、L2 和共享内存，而不是 DRAM。在模拟后端上它们是模型的估算，模型数的是扇区、wavefront 和指令，知道线程数、线程块数和共享内存所允许的占用率，但对寄存器一无所知。]],
  },
  run = [[s = sweep("conv2d", {variant = {"naive", "tiled"}, tile = {8, 16, 32}, y = "time"})]],
  ask = {
    question = { en = "Your speed-up at tile 16: the naive kernel's time ÷ the tiled kernel's time?",
                 zh = "你在 tile = 16 时的加速比：朴素核函数的时间 ÷ 分块核函数的时间？" },
    answer = function(ctx)
      local tiled = find(ctx, "conv2d", { variant = "tiled", tile = 16 })
      local naive = naive_like(ctx, tiled)
      if naive then return time_of(naive) / time_of(tiled) end
    end,
    tolerance = 0.05, relative = true,
  },
  hint = {
    { en = "Read the two tile-16 rows of the table and divide.", zh = "读表中 tile = 16 的两行，相除。" },
  },
  claims = {
    { text = "the model: at tile 16 both conv2d kernels are limited by issuing instructions, and the tiled one issues fewer and takes less time; tile 32 is its fastest tiled launch",
      holds = function(ctx)
        local tiled = find(ctx, "conv2d", { variant = "tiled", tile = 16 })
        local naive = naive_like(ctx, tiled)
        local t8, t32 = find(ctx, "conv2d", { variant = "tiled", tile = 8 }), find(ctx, "conv2d", { variant = "tiled", tile = 32 })
        return naive.model.limit_key == "issue" and tiled.model.limit_key == "issue" and
               tiled.model.instructions < naive.model.instructions and tiled.model.time_ms < naive.model.time_ms and
               t32.model.time_ms < tiled.model.time_ms and t32.model.time_ms < t8.model.time_ms
      end },
    { text = "conv2d 1024 x 1024, tile 16: the tiled kernel takes less time than the naive one", gpu = true,
      holds = function(ctx)
        local tiled = find(ctx, "conv2d", { variant = "tiled", tile = 16 })
        return time_of(tiled) < time_of(naive_like(ctx, tiled))
      end },
  },
  explain = {
    en = [[The model gives about 1.1 at tile 16 (the H200 measured 1.21, 2026-12-02): on the H200 profile it finds both kernels limited by issuing instructions, 25 multiply-adds a pixel being more work than their memory traffic, and the tiled kernel issues about 13% fewer (r.model.instructions); its shared-memory wavefronts, bank conflicts included, are charged too, but stay below that. It ranks tile 32 first, by under 1%: the least halo, the fewest copy instructions. The chapter expects 16 x 16 to balance halo against occupancy; on a GPU, which tile wins depends on the registers the kernel needs and on how well L1 already serves the naive kernel's repeated reads. Read your own table. What does not change is the direction: fewer load instructions and sectors for every tile size, and the fastest tile found by measuring, as the chapter's rule of thumb says (start at 16 x 16 or 32 x 8, then measure).]],
    zh = [[模型在 tile = 16 时给出约 1.1 倍（H200 实测 1.21 倍，2026-12-02）：在 H200 配置下，它认为两个核函数都受发出指令限制，每个像素 25 次乘加的计算多于它们的访存，而分块核函数发出的指令少约 13%（r.model.instructions）；它的共享内存 wavefront（包括存储体冲突）也计入了，但低于这一项。模型把 tile = 32 排在第一，领先不到 1%：边缘区最少，拷贝指令也最少。本章预计 16 x 16 能在边缘区与占用率之间取得平衡；在 GPU 上哪个分块最快，取决于核函数需要多少寄存器，以及 L1 已经替朴素核函数接住了多少重复读取。看你自己的表。不变的是方向：每种分块大小的读指令和扇区都更少；最快的分块要靠测量来找，正如本章的经验法则（从 16 x 16 或 32 x 8 开始，再测量调整）。]],
  },
}

step {
  text = {
    en = [[Matrix multiply is the chapter's first tiling example. In the naive C = A x B each thread reads A[row][i] and B[i][col] from global memory for every product: 2k load requests per warp. The tiled kernel walks k in steps of the tile: each thread copies one element of A and one of B into shared memory, the block synchronises, and the tile's products read shared memory. Each element fetched serves a whole row or column of the tile's threads. 256 x 256 x 256 by default.]],
    zh = [[矩阵乘法是本章的第一个分块例子。在朴素的 C = A x B 里，每个线程每做一次乘法都要从全局内存读 A[row][i] 和 B[i][col]：每个 warp 2k 个读请求。分块核函数沿 k 以分块为步长前进：每个线程把 A 的一个元素和 B 的一个元素拷进共享内存，线程块同步，然后这一块的乘法都从共享内存读。取回的每个元素为分块的一整行或一整列线程服务。默认大小 256 x 256 x 256。]],
  },
  run = [[rs = launch("matmul", {{variant = "naive"}, {variant = "tiled"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "Naive global load requests ÷ tiled ones, in your comparison?", zh = "在你的比较里，朴素的全局读请求数 ÷ 分块的？" },
    answer = function(ctx)
      local tiled = find(ctx, "matmul", { variant = "tiled", tile = 16 })
      local naive = naive_like(ctx, tiled)
      if naive then return naive.load.requests / tiled.load.requests end
    end,
    tolerance = 0.01, relative = true,
  },
  hint = {
    { en = "The load requests row of the compare() table: a is the naive kernel, b the tiled one.", zh = "compare() 表里“读取请求数”那一行：a 是朴素核函数，b 是分块核函数。" },
  },
  claims = {
    { text = "matmul 256^3: tiled at tile 16 makes exactly 16 times fewer global load requests than naive",
      holds = function(ctx) return ctx.results[1].load.requests == 16 * ctx.results[2].load.requests end },
    { text = "matmul 256^3, tile 16: the tiled kernel takes less time than the naive one", gpu = true,
      holds = function(ctx) return time_of(ctx.results[2]) < time_of(ctx.results[1]) end },
  },
  explain = {
    en = [[16, the tile side, just as the chapter says: 1,048,576 requests against 65,536. Each element of A copied to shared memory is read by the 16 threads of its tile row, each element of B by the 16 of its column. The sectors fall 8 times, not 16, because the naive warp (two rows of 16 threads) read its A elements as near-broadcasts of 2 sectors anyway. As with the convolution, 768 kB of matrices sit in L2: the DRAM bytes are the same, the load instructions and the L1/L2 traffic are not.]],
    zh = [[16 倍，正好是分块的边长，和本章说的一样：1,048,576 个请求对 65,536 个。拷进共享内存的每个 A 元素被它所在分块行的 16 个线程读取，每个 B 元素被它那一列的 16 个线程读取。扇区数只少了 8 倍而不是 16 倍，因为朴素核函数的 warp（两行、每行 16 个线程）读 A 时本来就接近广播，只占 2 个扇区。和卷积一样，768 kB 的矩阵都在 L2 里：DRAM 字节数相同，不同的是读指令和 L1/L2 流量。]],
  },
}

step {
  text = {
    en = [[A larger tile reuses each fetched element more times. Launch a tiled matrix multiply that makes at most 1/32 of the naive kernel's global load requests for the same m, n and k, then :answer to check it.]],
    zh = [[分块越大，取回的每个元素被复用的次数越多。启动一个分块矩阵乘法，使它的全局读请求数不超过同样 m、n、k 下朴素核函数的 1/32，然后输入 :answer 检查。]],
  },
  run = [[launch("matmul", {variant = "tiled", tile = 16})]],
  ask = {
    goal = { en = "matmul, tiled, with at most 1/32 of naive's 2k·m·n/32 global load requests.",
             zh = "matmul 分块版，全局读请求数不超过朴素版 2k·m·n/32 的 1/32。" },
    solution = [[launch("matmul", {variant = "tiled", tile = 32})]],
    check = function(ctx)
      local r = ctx.result
      if r.kernel ~= "matmul" or r.params.variant ~= "tiled" then return false end
      local p = r.params
      return 32 * r.load.requests <= 2 * p.k * p.m * p.n / 32
    end,
  },
  hint = {
    { en = "The last step found how many times fewer requests than naive tile 16 makes. Compare that number with the tile, then try another tile.",
      zh = "上一步算出了 tile = 16 比朴素版本少多少倍请求。把这个数和 `tile` 的值比一比，再试另一个值。" },
    { en = "info(\"matmul\") lists the tile sizes the kernel allows.", zh = "info(\"matmul\") 列出核函数允许的 `tile` 取值。" },
  },
  explain = {
    en = [[Tile 32: 32,768 requests, 32 times fewer, for 8 KB of shared memory a block (two 32 x 32 float tiles) and 1,024 threads. The returns diminish, as the chapter says: going from 8 to 16 saved 65,536 requests, going from 16 to 32 saves 32,768 more, and there is no tile 64, since a block has at most 1,024 threads. Further reuse comes from each thread computing several outputs from registers (register tiling), not from a bigger shared tile.]],
    zh = [[tile = 32：32,768 个请求，少了 32 倍，代价是每个线程块 8 KB 共享内存（两个 32 x 32 的 float 分块）和 1,024 个线程。正如本章所说，收益递减：从 8 到 16 省了 65,536 个请求，从 16 到 32 只再省 32,768 个；也没有 tile = 64，因为一个线程块最多 1,024 个线程。更多的复用要靠每个线程用寄存器计算多个输出（寄存器分块），而不是更大的共享内存分块。]],
  },
}

step {
  text = {
    en = [[Summing up: a tile turns many global reads of the same data into one copy into shared memory and many reads from there. What it costs is the halo (most at small tiles), bank conflicts that depend on the tile's shape, and the SM's limits on threads, registers and shared memory (most at large tiles). The profiler's counts say which of these a tile size pays; the timer says which tile wins. Type :next to finish.]],
    zh = [[小结：分块把对同一数据的多次全局读取，变成一次拷进共享内存、再从那里多次读取。代价是边缘区（分块越小越贵）、取决于分块形状的存储体冲突，以及 SM 在线程、寄存器和共享内存上的限制（分块越大越紧）。性能分析工具的计数告诉你某个分块大小付出了哪些代价；计时告诉你哪个分块最快。输入 :next 结束。]],
  },
}
