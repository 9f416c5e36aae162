-- exercises: the chapter's ten exercises, one a step, each rephrased and
-- made checkable: against the student's own launches where an experiment
-- shows the answer, as a number or a choice with its reasoning otherwise.

-- A claim of a step that runs cp.async does not apply to a GPU without it.
local function without_cp_async(ctx) return lacks(ctx, "cp.async", 80) end

lab {
  title = { en = "The chapter's ten exercises", zh = "本章的十道习题" },
  topics = { "locality", "coalescing", "AoS/SoA", "cache lines", "tile size", "prefetching", "working set",
             "transpose", "SpMV", "histogram" },
  minutes = 45,   -- about how long a student takes, by its authors' estimate
}

step {
  text = {
    en = [[Ten steps, one for each of the chapter's exercises, in its order. Where a launch can show the answer, the answer is checked against your own launch.

Exercise 1, kinds of locality. Temporal locality: the same data is used again soon. Spatial locality: data next to what was just used is used soon. Classify four patterns: (a) a loop that keeps using one variable; (b) walking an array in order; (c) looking keys up in a hash table; (d) visiting a row-major matrix row by row. The launch below is (c) on a GPU: a warp looks up 32 keys whose hashes put their slots anywhere in a 48 MiB table (a gather with random indices), against the same lookups with sorted indices, where a warp's slots lie side by side as in (b).]],
    zh = [[共十步，每步一道本章习题，按原书顺序。凡是能用一次启动说明答案的，都用你自己的启动结果来检查。

习题 1，局部性的种类。时间局部性：同一份数据很快会被再次使用。空间局部性：紧挨着刚用过的数据的那些数据很快会被使用。给下面四种模式分类：(a) 循环中反复使用同一个变量；(b) 顺序遍历数组；(c) 在哈希表里查找键；(d) 按行遍历行优先存储的矩阵。下面的启动就是 GPU 上的 (c)：一个 warp 查找 32 个键，它们的哈希把槽位放在 48 MiB 表里的任何地方（下标随机的间接读取），对照的是下标排好序的同样查找，一个 warp 的槽位像 (b) 那样并排放着。]],
  },
  run = [[rs = launch("gather", {{pattern = "sorted"}, {pattern = "random"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "Which classification is right?", zh = "哪一种分类是对的？" },
    choices = {
      { en = "a temporal · b spatial · c spatial: a lookup reads the keys stored side by side in the table · d spatial",
        zh = "a 时间 · b 空间 · c 空间：查找读取的是表里并排存放的键 · d 空间" },
      { en = "a temporal · b spatial · c temporal at best: hot keys come back, but their slots are scattered · d spatial",
        zh = "a 时间 · b 空间 · c 最多有时间局部性：热门的键会再次出现，但它们的槽位是分散的 · d 空间" },
      { en = "a spatial: the variable sits next to the data used last · b spatial · c temporal at best · d spatial",
        zh = "a 空间：这个变量就挨着上次用过的数据 · b 空间 · c 最多有时间局部性 · d 空间" },
      { en = "a temporal · b spatial · c temporal at best · d temporal: each row is used again for the next one",
        zh = "a 时间 · b 空间 · c 最多有时间局部性 · d 时间：每一行都会为下一行再用一次" },
    },
    answer = 2,
  },
  hint = {
    { en = "Ask of each: is it the same address again, or the next address?", zh = "对每一种都问：是再次访问同一个地址，还是访问下一个地址？" },
    { en = "For (c), look at the random gather's load sectors per request in your run: do the lanes of a warp share sectors?",
      zh = "对 (c)，看你的运行里随机间接读取的每请求扇区数：一个 warp 的线程共用扇区吗？" },
  },
  explain = {
    en = [[(a) The same address again: temporal, and the compiler keeps it in a register. (b) and (d) The next address each time: spatial, which on a GPU becomes coalescing when neighbouring lanes take neighbouring elements; a row-major matrix walked row by row is one long array. (c) A hash puts neighbouring keys far apart on purpose: your random gather's lanes share no sectors (about 18 sectors a request against 4, the index load's 4 and the lookups' 32 averaged), so a lookup has almost no spatial locality. What it can have is temporal: popular keys and a table small enough to stay in cache (the chapter lists lookup tables under temporal locality).]],
    zh = [[(a) 再次访问同一个地址：时间局部性，编译器会把它放在寄存器里。(b) 和 (d) 每次访问下一个地址：空间局部性，在 GPU 上当相邻线程取相邻元素时就成为合并访问；按行遍历行优先的矩阵就是遍历一个长数组。(c) 哈希故意把相邻的键放到很远的地方：你的随机间接读取里各线程不共用扇区（每请求约 18 个扇区对 4 个，是下标读取的 4 个和查找的 32 个的平均），所以一次查找几乎没有空间局部性。它能有的是时间局部性：热门的键，以及小到能留在缓存里的表（本章把查找表列在时间局部性下）。]],
  },
  claims = {
    { text = "gather: random indices touch 4.5 times the load sectors of sorted ones, within 1%",
      holds = function(ctx) return math.abs(ctx.results[2].load.sectors / ctx.results[1].load.sectors - 4.5) <= 0.045 end },
  },
}

step {
  text = {
    en = [[Exercise 2, coalescing with double.
 Lane i of a warp reads data[i] of a double array (8 bytes each). Is the access coalesced, and how many 128-byte transactions does a warp need? And with float? The chapter counts 128-byte transactions; a GPU's counters count 32-byte sectors and the model also gives the 128-byte lines. Run both types.]],
    zh = [[习题 2，double 的合并访问。warp 的第 i 个线程读 double 数组（每个 8 字节）的 data[i]。这是合并访问吗？一个 warp 需要几个 128 字节的事务？换成 float 呢？本章按 128 字节事务计数；GPU 的计数器按 32 字节扇区计数，模型也给出 128 字节缓存行的数目。把两种类型都运行一下。]],
  },
  run = [=[rs = launch("width", {{type = "float", n = 1 << 20}, {type = "double", n = 1 << 20}}); rs[1], rs[2]]=],
  ask = {
    question = { en = "How many 128-byte lines does one load request of the double launch touch (its lines ÷ its requests)?",
                 zh = "double 那次启动的一个读请求碰到多少条 128 字节缓存行（缓存行数 ÷ 请求数）？" },
    answer = function(ctx)
      local r = find(ctx, "width", { type = "double" })
      if r then return r.load.lines / r.load.requests end
    end,
    tolerance = 0.01, unit = "lines/request",
  },
  hint = {
    { en = "32 lanes × 8 bytes.", zh = "32 个线程 × 8 字节。" },
    { en = "Read the loads line of the double result: requests and lines.", zh = "看 double 结果的 “读取”行：requests 和 lines。" },
  },
  claims = {
    { text = "width double: 8 sectors per load request and every fetched byte used; float: 4",
      holds = function(ctx)
        local float, double = ctx.results[1].load, ctx.results[2].load
        return double.sectors_per_request == 8.0 and float.sectors_per_request == 4.0 and double.useful_fraction == 1.0
      end },
  },
  explain = {
    en = [[2: 256 contiguous, aligned bytes are two 128-byte lines, or 8 sectors. It is fully coalesced: every byte fetched is used, there are just twice as many of them as with float, which needs one line (4 sectors). "Coalesced" means no wasted bytes, not one transaction: a warp of float4 needs 4 lines and is coalesced too.]],
    zh = [[2 条：256 个连续且对齐的字节就是两条 128 字节缓存行，即 8 个扇区。它是完全合并的：取回的每个字节都用上了，只是字节数是 float 的两倍；float 只要一条缓存行（4 个扇区）。“合并”的意思是不浪费字节，而不是只要一个事务：一个 warp 读 float4 要 4 条缓存行，同样是合并访问。]],
  },
}

step {
  text = {
    en = [[Exercise 3, AoS to SoA. A record { int id; float x, y, z; double timestamp; } and a kernel that uses only x, y and z. How much of the bandwidth does a struct of arrays save? The chapter calls the record 32 bytes; check with a C compiler: 4 + 12 bytes, then the double at offset 16, 24 bytes in all. The aos_soa family has records of fields × 4 bytes: fields = 6 is this 24-byte record. Its kernel reads one field of each record; the exercise's reads three. Run both layouts and look at the DRAM bytes each reads per record (printed below the comparison).]],
    zh = [[习题 3，AoS 转 SoA。一个记录 { `int id`; float x, y, z; double timestamp; }，核函数只用 x、y、z。改成数组结构体（SoA）能省多少带宽？本章说这个记录是 32 字节；用 C 编译器验证一下：4 + 12 字节，然后 double 在偏移 16 处，一共 24 字节。aos_soa 族的记录是 fields × 4 字节：fields = 6 就是这个 24 字节的记录。它的核函数读每条记录的一个字段；这道题的核函数读三个。两种布局都运行一下，看每种布局每条记录读了多少 DRAM 字节（打印在比较表下面）。]],
  },
  run = [[rs = launch("aos_soa", {{layout = "aos", fields = 6, access = "read"}, {layout = "soa", fields = 6, access = "read"}})
print(compare(rs[1], rs[2]))
for _, r in ipairs(rs) do print(r.params.layout, r.dram.read_bytes / r.params.n, "DRAM bytes per record") end]],
  ask = {
    question = { en = "From your runs: by what percentage would a struct of arrays cut the DRAM bytes the exercise's kernel (x, y and z of each 24-byte record) reads?",
                 zh = "根据你的运行：改成数组结构体，这道题的核函数（读每条 24 字节记录的 x、y、z）读取的 DRAM 字节会减少百分之多少？" },
    answer = function(ctx)   -- AoS reads whole records whatever it uses; SoA reads 4 bytes for each of the 3 fields
      local aos = find(ctx, "aos_soa", { layout = "aos", fields = 6, access = "read" })
      local soa = find(ctx, "aos_soa", { layout = "soa", fields = 6, access = "read" })
      if aos and soa and aos.params.n == soa.params.n then
        return 100 * (1 - 3 * soa.dram.read_bytes / aos.dram.read_bytes)
      end
    end,
    tolerance = 1, unit = "%",
  },
  hint = {
    { en = "Does the array of structs read fewer bytes per record when the kernel uses fewer fields? Compare its bytes per record with the record's size.",
      zh = "核函数用的字段少了，结构体数组每条记录读的字节就少吗？把它每条记录的字节数和记录的大小比一比。" },
    { en = "The struct of arrays reads one array per field used: your run shows what one field costs, and the exercise uses three.",
      zh = "数组结构体为用到的每个字段读一个数组：你的运行显示了一个字段的代价，而这道题用三个。" },
  },
  claims = {
    { text = "aos_soa, 24-byte records, one field read: 24 sectors per load request as AoS, 4 as SoA",
      holds = function(ctx)
        return ctx.results[1].load.sectors_per_request == 24.0 and ctx.results[2].load.sectors_per_request == 4.0
      end },
    { text = "aos_soa, 24-byte records (2^24, cold L2): AoS reads 24 DRAM bytes a record and SoA 4, within 5%", gpu = true,
      holds = function(ctx)
        local aos, soa = ctx.results[1], ctx.results[2]
        return math.abs(aos.dram.read_bytes / aos.params.n - 24) <= 1.2 and math.abs(soa.dram.read_bytes / soa.params.n - 4) <= 0.2
      end },
  },
  explain = {
    en = [[50%: the array of structs reads the whole 24-byte record whatever the kernel uses (your run: 24 bytes a record for one field), because 32 records side by side in a warp leave no sector untouched; the struct of arrays reads 4 bytes per field used, 12 for x, y and z. For the chapter's 32-byte record the same count gives 62.5% (12 of 32), and the particles family has that shape. Time is another matter: the reference notes timed a smaller case (a two-float struct, one field written) at 1.5 to 1.8 times, less than its bytes promise; the aos-soa lab measures the time.]],
    zh = [[50%：无论核函数用哪些字段，结构体数组都要读整条 24 字节的记录（你的运行：读一个字段，每条记录 24 字节），因为一个 warp 的 32 条记录首尾相接，没有哪个扇区不被碰到；数组结构体为用到的每个字段读 4 字节，x、y、z 共 12 字节。按本章的 32 字节记录，同样的算法得 62.5%（32 字节中的 12 字节），particles 族就是那种形状。时间是另一回事：参考笔记测过一个更小的例子（两个 float 的结构体，写一个字段），快 1.5 到 1.8 倍，比它的字节数预示的少；aos-soa 实验会测量时间。]],
  },
}

step {
  text = {
    en = [[Exercise 4, cache lines. With 128-byte lines, how many floats does one miss of a sequential float stream bring in, and what hit rate is left if the accesses are random instead? On NVIDIA GPUs L1 and L2 keep 128-byte lines but fill them 32-byte sector by sector. A stride of 32 floats puts every lane in a line of its own, the way random reads over a large array land. Run a sequential and a stride-32 launch.]],
    zh = [[习题 4，缓存行分析。缓存行为 128 字节时，顺序读取 float 数组，一次缺失会带进多少个 float？如果之后的访问是随机的，命中率还剩多少？在 NVIDIA GPU 上，L1 和 L2 保存 128 字节的缓存行，但按 32 字节扇区逐个填充。步长 32 个 float 让每个线程各落在自己的一条缓存行里，就像在大数组上随机读取一样。运行一次顺序读取和一次步长 32 的读取。]],
  },
  run = [=[rs = launch("strided", {{stride = 1, n = 1 << 20}, {stride = 32, n = 1 << 20}}); rs[1], rs[2]]=],
  ask = {
    question = { en = "In the stride-32 launch, how many floats did the loads fetch for each float a lane used?",
                 zh = "在步长 32 的启动里，线程每用到一个 float，读操作取回了多少个 float？" },
    answer = function(ctx)
      local r = find(ctx, "strided", { stride = 32 })
      if r then return 1 / r.load.useful_fraction end
    end,
    tolerance = 0.05, unit = "floats",
  },
  hint = {
    { en = "1 ÷ the useful share of the loads.", zh = "1 ÷ 读操作的有用比例。" },
    { en = "A miss fetches one 32-byte sector.", zh = "一次缺失取回一个 32 字节扇区。" },
  },
  claims = {
    { text = "strided 32: 32 sectors per request, 12.5% of the fetched bytes used",
      holds = function(ctx) return ctx.results[2].load.sectors_per_request == 32.0 and ctx.results[2].load.useful_fraction == 0.125 end },
    { text = "strided 32 (n = 2^20): about 64 DRAM bytes read per float used (within 10%)", gpu = true,
      holds = function(ctx)
        local r = ctx.results[2]
        return math.abs(r.dram.read_bytes / r.params.n - 64) <= 6.4
      end },
  },
  explain = {
    en = [[8: one 32-byte sector for one 4-byte float. The chapter's answer counts whole lines: 32 floats per miss, so a sequential stream misses once in 32 reads. With sector fills a miss brings 8 floats, and a stream still uses them all (the other sectors of the line follow at once). Random reads over an array much larger than the cache use one float of each sector, and the next read almost never finds its sector: the hit rate is about cache size ÷ array size, near zero for a large array. The DRAM side is worse again: the H200 reads DRAM in 64-byte units, so each scattered float costs 64 bytes there (the DRAM line of the stride-32 result).]],
    zh = [[8 个：为一个 4 字节的 float 取回一个 32 字节扇区。本章的答案按整条缓存行算：每次缺失 32 个 float，所以顺序读取每 32 次读才缺失一次。按扇区填充时一次缺失带进 8 个 float，顺序流仍然会全部用上（这一行的其他扇区紧接着就来）。在远大于缓存的数组上随机读取，每个扇区只用一个 float，下一次读几乎从来找不到它的扇区：命中率大约是缓存大小 ÷ 数组大小，数组很大时接近零。DRAM 一侧还要更糟：H200 以 64 字节为单位读 DRAM，所以每个分散的 float 在那里要花 64 字节（看步长 32 结果的 DRAM 行）。]],
  },
}

step {
  text = {
    en = [[Exercise 5, the largest tile. An SM offers 112 KB (112 × 1,024 bytes) of shared memory, and the kernel declares float shared[TILE_SIZE + 4][TILE_SIZE + 4]: a tile with a halo of 2 on each side, as conv2d's tiled variant has at radius 2. Floats are 4 bytes, so every row is 4-byte aligned without padding. Count only the array: the 112 KB are what the kernel's own arrays may use, and the shared memory the system reserves for each block (1 KiB on the H200) is not part of them. What is the largest TILE_SIZE whose array fits?]],
    zh = [[习题 5，最大的分块。一个 SM 提供 112 KB（112 × 1,024 字节）共享内存，核函数声明 float shared[TILE_SIZE + 4][TILE_SIZE + 4]：每边带 2 个像素边缘区的分块，正如 conv2d 的分块版本在半径 2 时那样。float 是 4 字节，所以每一行不加填充也是 4 字节对齐的。只算这个数组：112 KB 是核函数自己的数组可以用的量，系统为每个线程块保留的共享内存（H200 上 1 KiB）不在其中。能放得下的最大 TILE_SIZE 是多少？]],
  },
  ask = {
    question = { en = "The largest TILE_SIZE with (TILE_SIZE + 4)^2 × 4 bytes ≤ 112 KB?",
                 zh = "满足 (TILE_SIZE + 4)^2 × 4 字节 ≤ 112 KB 的最大 TILE_SIZE？" },
    answer = 165, tolerance = 0,
  },
  hint = {
    { en = "112 × 1,024 / 4 = 28,672 floats; take the square root.", zh = "112 × 1,024 / 4 = 28,672 个 float；开平方。" },
    { en = "sqrt(28,672) = 169.3, and the side is TILE_SIZE + 4.", zh = "sqrt(28,672) = 169.3，而边长是 TILE_SIZE + 4。" },
  },
  explain = {
    en = [[165: 169^2 × 4 = 114,244 bytes fits in 114,688, 170^2 × 4 = 115,600 does not. A bound, not a choice. Had the 1 KiB reserved per block come out of the 112 KB, 113,664 bytes would leave 168^2 × 4 = 112,896: TILE_SIZE 164. A static __shared__ array is limited to 48 KB a block (106 by the same count); more needs dynamic shared memory and an opt-in. A block has at most 1,024 threads, so a 165 x 165 tile makes each thread produce about 27 pixels. One block filling the SM's shared memory leaves it one block: nothing to run while that block waits at __syncthreads(). The tiling lab counted the real trade-off: the halo shrinks as the tile grows (1.27 copies a pixel at 32), so beyond 32 there is little left to gain.]],
    zh = [[165：169^2 × 4 = 114,244 字节放得进 114,688，170^2 × 4 = 115,600 放不进。这是上限，而不是推荐值。如果每个线程块保留的 1 KiB 也要从 112 KB 里扣，剩下 113,664 字节，只放得下 168^2 × 4 = 112,896：TILE_SIZE 为 164。静态的 __shared__ 数组每个线程块最多 48 KB（同样算法得 106）；更多要用动态共享内存并显式开启。一个线程块最多 1,024 个线程，所以 165 x 165 的分块要每个线程算约 27 个像素。一个线程块占满 SM 的共享内存，SM 上就只有这一个线程块：它在 __syncthreads() 等待时没有别的可运行。分块实验算过真正的权衡：边缘区随分块变大而缩小（tile = 32 时每像素 1.27 次拷贝），超过 32 以后能得到的已经很少。]],
  },
}

step {
  text = {
    en = [[Exercise 6, prefetching a stream. Data is read once and thrown away. Does hardware prefetching help? Is software prefetching worth it? The prefetch family streams 4 chunks per block and does some work on each element: without prefetching, with the next chunk loaded into a register before working on this one, or copied into shared memory by cp.async. Run all three (on a GPU older than sm_80, which has no cp.async, the experiment runs the first two: can() says so).]],
    zh = [[习题 6，流式数据的预取。数据只读一次然后丢弃。硬件预取有效吗？软件预取有意义吗？prefetch 族让每个线程块流式处理 4 块数据，对每个元素做一些计算：不预取；在处理这一块之前先把下一块读进寄存器；或者用 cp.async 把下一块拷进共享内存。三种都运行一下（sm_80 之前的 GPU 没有 cp.async，实验代码只运行前两种：can() 会说明）。]],
  },
  run = [[v = {{variant = "none"}, {variant = "register"}}; if can("prefetch", {variant = "cp_async"}) then v[3] = {variant = "cp_async"} end; rs = launch("prefetch", v); c = compare(table.unpack(rs)); c]],
  ask = {
    question = { en = "DRAM bytes read by the register-prefetch version ÷ those of the version without prefetching?",
                 zh = "寄存器预取版本的 DRAM 读取字节数 ÷ 不预取版本的？" },
    answer = function(ctx)
      local none, register = find(ctx, "prefetch", { variant = "none" }), find(ctx, "prefetch", { variant = "register" })
      if none and register then return register.dram.read_bytes / none.dram.read_bytes end
    end,
    tolerance = 0.02,
  },
  hint = {
    { en = "Look at the DRAM row of the compare() table.", zh = "看 compare() 表的 DRAM 那一行。" },
  },
  claims = {
    { text = "prefetch: every variant the GPU ran reads the same global sectors (loads, or cp.async's copies; cp_async from sm_80)",
      holds = function(ctx)
        local function read(r) return r.load.sectors end   -- cp.async's copies count as loads too, as the H200 counts them
        for _, r in ipairs(ctx.results) do
          if read(r) ~= read(ctx.results[1]) then return false end
        end
        return #ctx.results == (without_cp_async(ctx) and 2 or 3)
      end },
    { text = "the model: every variant the same DRAM term; register the same time as none, cp_async (from sm_80) a shorter latency term and time",
      holds = function(ctx)
        local none, register = ctx.results[1].model, ctx.results[2].model
        for _, r in ipairs(ctx.results) do
          if r.model.terms.dram ~= none.terms.dram then return false end
        end
        local cp = ctx.results[3] and ctx.results[3].model
        return register.time_ms == none.time_ms and
               (cp == nil or cp.terms.latency < none.terms.latency and cp.time_ms < none.time_ms)
      end },
    { text = "prefetch, none: DRAM reads no more than the input's bytes (within 2%): no hardware prefetch fetches beyond what the loads ask for", gpu = true,
      holds = function(ctx)
        local none = ctx.results[1]
        return none.dram.read_bytes <= 1.02 * 4 * none.params.n
      end },
    { text = "prefetch: every prefetching variant the GPU ran reads the same DRAM bytes as none, within 2%", gpu = true,
      holds = function(ctx)
        local base = ctx.results[1].dram.read_bytes
        for _, r in ipairs(ctx.results) do
          if math.abs(r.dram.read_bytes - base) > 0.02 * base then return false end
        end
        return true
      end },
  },
  explain = {
    en = [[1.00: prefetching changes when bytes arrive, never how many. Reuse has nothing to do with it, so data used once can still gain: a stream needs enough loads in flight to cover the memory latency. The reference notes add that hardware prefetching suits a stream best of all patterns. That is a CPU's story: a GPU's loads bring in the sectors they ask for, and the DRAM row of the table shows no bytes beyond them (the latency lab's last question comes back to this). A GPU hides the latency with other warps instead: while one waits, the others issue their loads. So software prefetching helps only when too few loads are in flight: few warps per SM (large blocks, many registers) or much work per element. With many warps a stream is bound by DRAM bandwidth, and nothing cuts that but fewer bytes. On a GPU compare the times in the table (rs[2].time_ms / rs[1].time_ms). The model gives every variant the same DRAM term and register the same time as none, but cp_async a shorter latency term (its copies keep two chunks in flight and do not hold the warp), and with it 0.72 of none's time (H200 profile); the H200 measured cp_async at 0.84 of none's time and register at 1.00 (2026-12-02).]],
    zh = [[1.00：预取改变的是字节何时到达，而不是有多少字节。它与复用无关，所以只用一次的数据也可能受益：流式访问需要足够多的在途读取来覆盖内存延迟。参考笔记还说，在所有模式中硬件预取最适合顺序流。那是 CPU 的情形：GPU 的读取取回的就是它要的扇区，表里 DRAM 那一行也没有多出来的字节（延迟实验的最后一个问题会回到这一点）。GPU 靠的是其他 warp 来隐藏延迟：一个 warp 等待时，其他 warp 发出它们的读取。所以软件预取只在在途读取太少时才有帮助：每个 SM 上的 warp 太少（线程块太大、寄存器太多），或者每个元素的计算量很大。warp 足够多时，流式访问受 DRAM 带宽限制，除了减少字节，什么也减不了它。在 GPU 上比较表里的时间（rs[2].time_ms / rs[1].time_ms）。模型给每个版本的 DRAM 项都一样，register 的时间与 none 相同，但 cp_async 的延迟项更短（它的复制让两块数据同时在途，也不让 warp 等待），因而时间是 none 的 0.72 倍（H200 配置）；H200 实测 cp_async 的时间是 none 的 0.84 倍，register 是 1.00 倍（2026-12-02）。]],
  },
}

step {
  text = {
    en = [[Exercise 7, the working set. A kernel runs 2,048 threads, each using 8 distinct floats. How big is its working set, and does it fit a 6 MB L2? working_set's bytes parameter is exactly that: the size of the buffer its loads pass over again and again. Change bytes in the launch below to this kernel's working set, run it, then :answer to check.]],
    zh = [[习题 7，工作集估算。一个核函数有 2,048 个线程，每个线程使用 8 个不同的 float。它的工作集有多大？能完全放进 6 MB 的 L2 吗？working_set 族的 bytes 参数就是这个量：它的读取一遍又一遍经过的缓冲区大小。把下面启动里的 bytes 改成这个核函数的工作集，运行，然后输入 :answer 检查。]],
  },
  run = [[launch("working_set", {bytes = 16 * 1024 * 1024, n = 2048})]],
  ask = {
    goal = { en = "working_set with bytes equal to the working set of 2,048 threads × 8 floats.",
             zh = "working_set，bytes 等于 2,048 个线程 × 8 个 float 的工作集。" },
    solution = [[launch("working_set", {bytes = 65536, n = 2048})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "working_set" and r.params.bytes == 2048 * 8 * 4
    end,
  },
  hint = {
    { en = "What does each thread bring in that no other thread uses? Add that up over all the threads.", zh = "每个线程带进来哪些别的线程不用的数据？把所有线程的加起来。" },
    { en = "bytes counts bytes, not floats.", zh = "bytes 按字节计，不是按 float 个数。" },
  },
  claims = {
    { text = "working_set of 64 KB (cold L2): DRAM reads at most twice the working set", gpu = true,
      holds = function(ctx)
        local r = launch("working_set", { bytes = 65536, n = 2048 })
        return r.dram.read_bytes <= 2 * 65536
      end },
  },
  explain = {
    en = [[65,536 bytes, 64 KB: about 1% of a 6 MB L2 (0.1% of the H200's 60 MiB), so it fits with room to spare. The DRAM line shows what fitting means: each byte comes from DRAM once, about 64 kB, and every later pass over the buffer hits in cache. The chapter's estimate (active threads × distinct data per thread) assumes threads share nothing. Where they share (a stencil's neighbours, a tile), the working set is smaller. Where the accesses run past the cache (the working-set lab's sweep), every pass pays DRAM again.]],
    zh = [[65,536 字节，即 64 KB：大约是 6 MB L2 的 1%（H200 的 60 MiB L2 的 0.1%），放得下还绰绰有余。DRAM 行说明了“放得下”的含义：每个字节只从 DRAM 读一次，约 64 kB，之后对缓冲区的每一遍都在缓存中命中。本章的估算（活跃线程数 × 每线程的不同数据量）假设线程之间不共享数据。线程共享数据时（模板计算的邻居、分块），工作集更小。访问范围超过缓存时（工作集实验里的扫描），每一遍都要重新付 DRAM 的代价。]],
  },
}

step {
  text = {
    en = [[Exercise 8, the transpose. Write a transpose that stages a tile in shared memory so that both its reads and its writes are coalesced, and compare it with the naive one. The transpose family has all three versions (info("transpose") shows the source): naive, shared (a tile) and padded (the tile's rows one float longer). The launch below runs naive and shared at 4096 x 4096. Then launch the version, and tile size, whose global loads and stores both touch 4 sectors per request and whose shared-memory accesses have no bank conflicts, and :answer to check.]],
    zh = [[习题 8，矩阵转置。写一个借助共享内存分块的转置，让读和写都是合并访问，并与朴素版本比较。transpose 族有全部三个版本（info("transpose") 显示源码）：naive（朴素）、shared（一个分块）和 padded（分块的每行多一个 float）。下面的启动在 4096 x 4096 上运行朴素版和 shared 版。然后启动这样一个版本和分块大小：全局读和写都是每请求 4 个扇区，共享内存访问没有存储体冲突，再输入 :answer 检查。]],
  },
  run = [=[rs = launch("transpose", {{variant = "naive"}, {variant = "shared"}}); rs[1], rs[2]]=],
  ask = {
    goal = { en = "transpose with 4 sectors per request on loads and stores and 0 shared-memory bank conflicts.",
             zh = "transpose，读和写都是每请求 4 个扇区，共享内存存储体冲突为 0。" },
    solution = [[launch("transpose", {variant = "padded", tile = 32})]],
    needs = { kernel = "transpose", load_sectors = 4, store_sectors = 4, shared = true, bank_conflicts = 0 },
  },
  hint = {
    { en = "Read your two results: which of the naive one's lines is over 4 sectors per request, and what does the shared one's 'shared ld' line say?",
      zh = "读你的两个结果：朴素版本哪一行超过每请求 4 个扇区？shared 版本的 “共享读取”行说了什么？" },
    { en = "A column of a 32-float-wide tile is 32 words apart: in which banks do they lie? What would a longer row change?",
      zh = "32 个 float 宽的分块里，同一列的字相隔 32 个字：它们落在哪些存储体里？行再长一点会改变什么？", cause = "bank_conflicts" },
    { en = "Try the other variant, and more than one tile size: the shape of a warp in the tile matters.",
      zh = "试另一个版本，也试不止一种 `tile` 值：一个 warp 在分块里的形状很重要。" },
  },
  claims = {
    { text = "transpose 4096^2: naive stores touch 32 sectors per request; the shared tile's at 4, with 32-way conflicts at tile 32",
      holds = function(ctx)
        local naive, shared = ctx.results[1], ctx.results[2]
        return naive.store.sectors_per_request == 32.0 and shared.store.sectors_per_request == 4.0
           and shared.shared_load.bank_conflicts == 31 * shared.shared_load.requests
      end },
    { text = "transpose 4096^2: the padded tile-32 version takes less time than the naive one", gpu = true,
      holds = function(ctx)
        local padded = launch("transpose", { variant = "padded", tile = 32 })
        return time_of(padded) < time_of(ctx.results[1])
      end },
  },
  explain = {
    en = [[padded at tile 32. The tile turns the column write into a row write (4 sectors instead of 32). Reading a tile column from shared memory then hits one bank 32 times in the plain tile; padding each row by one float moves consecutive rows one bank along, and all 32 words land in different banks. At tile 16 or 8 a warp spans two or four tile rows, and no padding clears both accesses: 2-way conflicts remain. On a GPU compare the times: the naive version's 32-sector stores are the expensive part.]],
    zh = [[tile = 32 的 padded 版本。分块把按列写变成按行写（4 个扇区而不是 32 个）。接着从共享内存读分块的一列，在普通分块里会 32 次落在同一个存储体；每行填充一个 float，让相邻的行错开一个存储体，32 个字就落在 32 个不同的存储体上。tile = 16 或 8 时，一个 warp 跨两行或四行分块，无论怎样填充都不能让两种访问都没有冲突：仍有 2 路冲突。在 GPU 上比较时间：朴素版本每请求 32 个扇区的写是最贵的部分。]],
  },
}

-- Exercise 8, written by the student: the transpose through a shared tile.
local TRANSPOSE_SKELETON = [==[
// my_transpose: in is height rows of width floats; out is its transpose,
// width rows of height floats. One thread an element, in 32 x 32 blocks.
#define TILE 32
extern "C" __global__ void my_transpose(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * TILE + threadIdx.x;   // the element's column in `in`
    int y = blockIdx.y * TILE + threadIdx.y;   // and its row
    // TODO: stage the block's tile in shared memory, so that the store
    // below writes rows of `out`, not columns; then pad the tile.
    if (x < width && y < height)
        out[(long long)x * height + y] = in[(long long)y * width + x];
}
]==]
-- The lab's own solution, for --check-lab (a student's may differ).
local TRANSPOSE_SOLUTION = [==[
// my_transpose, done: a tile of the block's 32 x 32 elements staged in
// shared memory, padded by a float a row so that its columns span 32 banks.
#define TILE 32
extern "C" __global__ void my_transpose(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height)
        tile[threadIdx.y][threadIdx.x] = in[(long long)y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;   // a column of out is a row of in
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < height && y < width)
        out[(long long)y * height + x] = tile[threadIdx.x][threadIdx.y];
}
]==]

step {
  text = {
    en = [[Exercise 8, write it. Now the transpose is yours: kernel my_transpose, whose skeleton reads a row of `in` per warp (coalesced) and writes a column of `out` (32 sectors a request). Open it with :edit, make both its reads and its writes coalesced through a tile in shared memory, launch it, and look at its shared accesses in the result and with show(r, 1). Then make them free of bank conflicts. Its outputs are checked against a reference on every launch.]],
    zh = [[习题 8，自己写。现在转置由你来写：核函数 my_transpose 的骨架代码每个 warp 读 `in` 的一行（合并访问），写 `out` 的一列（每请求 32 个扇区）。用 :edit 打开它，借助共享内存里的分块让读和写都是合并访问，启动它，在结果里和用 show(r, 1) 看它的共享内存访问。然后让它们没有存储体冲突。每次启动都会把它的输出与参考结果比对。]],
  },
  kernel = {
    name = "my_transpose",
    skeleton = TRANSPOSE_SKELETON, solution = TRANSPOSE_SOLUTION,
    summary = "exercise 8: your transpose", summary_zh = "习题 8：你写的转置",
    params = { width = { default = 1024, min = 1, max = 4096 }, height = { default = 512, min = 1, max = 4096 } },
    buffers = { ["in"] = { type = "float", count = function(p) return p.width * p.height end },
                out = { type = "float", count = function(p) return p.width * p.height end, output = true } },
    args = { "in", "out", "width", "height" },
    grid = { function(p) return (p.width + 31) // 32 end, function(p) return (p.height + 31) // 32 end },
    block = { 32, 32 },
    reference = function(p, b)
      local width, height, from, to = p.width, p.height, b["in"], b.out
      for y = 0, height - 1 do
        for x = 0, width - 1 do to[x * height + y] = from[y * width + x] end
      end
    end,
  },
  run = [[r = launch("my_transpose"); r]],
  ask = {
    goal = { en = "my_transpose, correct, with 4 sectors per request on its loads and stores, and shared-memory loads and stores without bank conflicts.",
             zh = "my_transpose，结果正确，读和写都是每请求 4 个扇区，共享内存的读和写都没有存储体冲突。" },
    solution = [[r = launch("my_transpose")]],
    needs = { kernel = "my_transpose", correct = true, load_sectors = 4, store_sectors = 4, shared = true, bank_conflicts = 0 },
  },
  hint = {
    { en = "show(r, 1) on the skeleton's launch: the load is one row of `in`, the store 32 rows of `out`. A tile lets each warp write a row of `out` instead.",
      zh = "对骨架代码的启动用 show(r, 1)：读取是 `in` 的一行，写入是 `out` 的 32 行。分块能让每个 warp 改为写 `out` 的一行。",
      cause = { "store_sectors", "shared" } },
    { en = "Read in[y * width + x] into tile[threadIdx.y][threadIdx.x]; __syncthreads(); then swap the block's coordinates (x from blockIdx.y, y from blockIdx.x) and write out[y * height + x] from tile[threadIdx.x][threadIdx.y].",
      zh = "把 in[y * width + x] 读进 tile[threadIdx.y][threadIdx.x]；__syncthreads()；然后交换线程块的坐标（x 取自 blockIdx.y，y 取自 blockIdx.x），把 tile[threadIdx.x][threadIdx.y] 写到 out[y * height + x]。",
      cause = { "store_sectors", "load_sectors", "shared" } },
    { en = "If the shared load shows 31 extra wavefronts, all 32 words of a tile column are in one bank: declare the tile `[TILE][TILE + 1]`.",
      zh = "如果共享内存读取多出 31 个 wavefront，说明分块一列的 32 个字都在同一个存储体里：把分块声明为 `[TILE][TILE + 1]`。",
      cause = "bank_conflicts" },
    { en = "The result names the first wrong element. out[x * height + y] must be in[y * width + x]: after the swap, check that the tile is read across (tile[threadIdx.x][threadIdx.y]) and that __syncthreads() sits between the tile's writes and its reads.",
      zh = "结果里写出了第一个错误的元素。out[x * height + y] 必须等于 in[y * width + x]：交换坐标之后，检查分块是不是按列读取（tile[threadIdx.x][threadIdx.y]），以及 __syncthreads() 是否位于写分块和读分块之间。",
      cause = "output" },
  },
  claims = {
    { text = "the skeleton, 1024 x 512: loads touch 4 sectors per request, stores 32, and it uses no shared memory",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.sectors_per_request == 4.0 and r.store.sectors_per_request == 32.0 and r.shared_load == nil
      end },
  },
  explain = {
    en = [[A warp reads 32 floats of a row of `in` into a row of the tile, and after __syncthreads() writes 32 floats of a row of `out`, taken from a column of the tile: both global accesses are 4 sectors. The column read of a 32-float-wide tile finds its 32 words 32 words apart, all in one bank: 32 wavefronts where 1 would do. One float of padding a row (`tile[TILE][TILE + 1]`) moves each row one bank along, and the column's words fall in 32 banks.]],
    zh = [[一个 warp 把 `in` 一行里的 32 个 float 读进分块的一行，在 __syncthreads() 之后从分块的一列取 32 个 float，写到 `out` 的一行：两次全局访问都是 4 个扇区。32 个 float 宽的分块，读一列时 32 个字彼此相隔 32 个字，全在同一个存储体里：本来 1 个 wavefront 就够，现在要 32 个。每行填充一个 float（`tile[TILE][TILE + 1]`），每一行就错开一个存储体，这一列的字落在 32 个存储体里。]],
  },
}

step {
  text = {
    en = [[Exercise 9, locality in sparse matrix-vector products. A CSR matrix keeps each row's non-zeros contiguous (val[], col[]) with row_ptr[] marking where rows start. What is special about SpMV's accesses, why is its locality hard to improve, and what would help? The spmv family runs y = A·x with 16 non-zeros a row, either one thread per row (scalar) or one warp per row (vector). Run both.]],
    zh = [[习题 9，稀疏矩阵向量乘的局部性。CSR 矩阵把每一行的非零元连续存放（val[]、col[]），row_ptr[] 标出每行的起点。`SpMV` 的访问模式有什么特点？为什么它的局部性难以优化？有什么改进办法？spmv 族计算 y = A·x，每行 16 个非零元，一个线程处理一行（scalar）或一个 warp 处理一行（vector）。两种都运行一下。]],
  },
  run = [=[rs = launch("spmv", {{variant = "scalar"}, {variant = "vector"}}); rs[1], rs[2]]=],
  ask = {
    question = { en = "How many times more load sectors does the thread-per-row version touch than the warp-per-row one?",
                 zh = "每线程一行的版本碰到的读扇区数是每 warp 一行版本的多少倍？" },
    answer = function(ctx)
      local scalar, vector = find(ctx, "spmv", { variant = "scalar" }), find(ctx, "spmv", { variant = "vector" })
      if scalar and vector and scalar.params.n == vector.params.n then return scalar.load.sectors / vector.load.sectors end
    end,
    tolerance = 0.03, relative = true,
  },
  hint = {
    { en = "Divide the two 'sectors' figures of the loads lines.", zh = "用两个结果 “读取”行的扇区相除。" },
  },
  claims = {
    { text = "spmv, 16 non-zeros a row: scalar touches over twice the load sectors of vector",
      holds = function(ctx) return ctx.results[1].load.sectors > 2 * ctx.results[2].load.sectors end },
  },
  explain = {
    en = [=[About 2.2. A thread per row puts neighbouring lanes a whole row apart in col[] and val[] (16 × 4 = 64 bytes), so those reads cost a sector per lane; a warp per row reads them consecutively. Neither fixes x[col[j]]: a gather whose addresses the matrix decides, known only at run time, scattered over x unless the non-zeros cluster. That is why SpMV is hard. The arrays are read once, so only x can be reused, and its reuse depends on the matrix's structure. What helps: a warp (or a few lanes) per row, as here; formats that make the thread-per-row reads coalesced (ELL, SELL-C-σ: rows padded and stored column by column); reordering rows and columns (e.g. reverse Cuthill-McKee) so that a row's columns, and x's reads, fall close together; small dense blocks (BSR). The warp per row wastes lanes too: with 16 non-zeros a row, 16 of its 32 lanes have nothing to read. That is idle lanes, not wasted bytes; its loads also use only 28% of the bytes they fetch, mostly because of the scattered reads of x. So the best choice depends on the rows' lengths (a few lanes a row for short rows).]=],
    zh = [=[约 2.2 倍。每线程一行时，相邻线程在 col[] 和 val[] 里相隔整整一行（16 × 4 = 64 字节），这些读取每个线程要一个扇区；每 warp 一行时它们是连续读取的。两者都解决不了 x[col[j]]：它是一次间接读取，地址由矩阵决定，运行时才知道，除非非零元聚集在一起，否则分散在整个 x 上。这就是 `SpMV` 难以优化的原因。数组都只读一次，能复用的只有 x，而它的复用取决于矩阵的结构。改进办法：像这里一样每 warp（或几个线程）处理一行；使用让每线程一行的读取也能合并的格式（`ELL`、`SELL-C-σ`：把行补齐并按列存放）；重排行和列（例如逆 `Cuthill-McKee`），让一行的列、也就是对 x 的读取靠在一起；使用小的稠密块（`BSR`）。每 warp 一行也会浪费线程：每行 16 个非零元时，32 个线程中有 16 个没有东西可读。这是闲置的线程，不是浪费的字节；另外它的读取也只用到取回字节的 28%，主要是因为对 x 的分散读取。所以最好的选择取决于行的长度（行短时每行用几个线程）。]=],
  },
}

step {
  text = {
    en = [[Exercise 10, histogram equalisation. Design it: a histogram of the pixel values, its running sum (the CDF), then every pixel mapped through the CDF. How does shared memory cut global traffic, how should the data be laid out, how large should blocks and tiles (the pixels a block takes) be? The histogram family is the first phase: every element adds 1 to a bin with an atomic, either in global memory or in a per-block copy in shared memory that is added to the global counts at the end, one atomic per bin. Each thread takes one element, so a block's 256 elements against 256 bins would flush as many global atomics as it saves. Launch the shared version with a block large enough that the global atomics are at most a quarter of the elements, then :answer.]],
    zh = [[习题 10，直方图均衡化。设计它：统计像素值的直方图，求它的前缀和（`CDF`），再把每个像素经 `CDF` 映射。共享内存怎样减少全局访问？数据怎样布局？线程块和分块（一个线程块处理的像素）多大合适？histogram 族就是第一阶段：每个元素用原子操作给一个桶加 1，要么直接在全局内存里，要么在每个线程块自己的共享内存副本里，最后再加到全局计数上，每个桶一次原子操作。每个线程处理一个元素，所以一个线程块的 256 个元素对 256 个桶，最后写回的全局原子操作和省下的一样多。启动共享内存版本，让线程块足够大，使全局原子操作最多是元素数的四分之一，然后输入 :answer。]],
  },
  run = [[launch("histogram", {variant = "shared", bins = 256, block = 256})]],
  ask = {
    goal = { en = "histogram, shared, with bins ÷ block ≤ 1/4 (at most one global atomic per four elements).",
             zh = "histogram 共享内存版，bins ÷ 线程块 ≤ 1/4（每四个元素最多一次全局原子操作）。" },
    solution = [[launch("histogram", {variant = "shared", bins = 256, block = 1024})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "histogram" and r.params.variant == "shared" and 4 * r.params.bins <= r.params.block
    end,
  },
  hint = {
    { en = "Count, for one block: how many elements does it count, and how many global atomics does it issue when it adds its copy to the global counts?",
      zh = "对一个线程块数一数：它统计多少个元素？把它的副本加到全局计数上时发出多少次全局原子操作？" },
    { en = "info(\"histogram\") lists the block sizes the family allows.", zh = "info(\"histogram\") 列出这个核函数族允许的 `block` 取值。" },
  },
  claims = {
    { text = "histogram, skewed data (half in bin 0), 256 bins: the shared version with blocks of 1024 is faster than global atomics", gpu = true,
      holds = function(ctx)
        local global = launch("histogram", { variant = "global", distribution = "skewed" })
        local shared = launch("histogram", { variant = "shared", distribution = "skewed", block = 1024 })
        return time_of(shared) < time_of(global)
      end },
  },
  explain = {
    en = [[A block of 1,024 counts 1,024 elements and flushes 256 bins. The private copy keeps every per-element atomic on the SM, so popular bins (a dark image's bin 0) contend inside one block, not across the whole GPU. Real designs go further: each thread takes many pixels (a grid-stride loop over uchar4 or wider loads, coalesced), so a block sees thousands of pixels per flush. The CDF of 256 bins is one small block's prefix sum. The mapping pass reads each pixel once, coalesced, and looks its value up in a 256-entry table: keep that table in shared memory. In constant memory, lanes with different values would be served one address at a time (the coalescing lab's broadcast experiment). Blocks of 256 to 1,024 threads, enough per block to amortise the flush and enough blocks to fill every SM. The time on a GPU is the measure here: on this skewed data the H200 measured global atomics 38 times as slow as the shared version with blocks of 1,024 (2026-12-02); the model, which makes requests to one sector of L2 wait their turn, gives about 32.]],
    zh = [[1,024 个线程的线程块统计 1,024 个元素，最后写回 256 个桶。私有副本让每个元素的原子操作都留在 SM 上，于是热门的桶（暗图像的 0 号桶）只在一个线程块内部争用，而不是在整个 GPU 上争用。实际的设计还会更进一步：每个线程处理许多像素（用网格步长循环，按 `uchar4` 或更宽的类型合并读取），这样一个线程块每次写回前要处理数千个像素。256 个桶的 `CDF` 是一个小线程块的前缀和。映射阶段把每个像素合并地读一次，在一张 256 项的表里查它的新值：把这张表放在共享内存里。如果放在常量内存里，值不同的线程会被一个地址一个地址地依次服务（合并访问实验里的广播实验）。线程块取 256 到 1,024 个线程：每个线程块的元素足够多才能摊薄写回，线程块足够多才能填满每个 SM。这里要靠 GPU 上的时间来衡量：在这种偏斜数据上，H200 实测全局内存原子操作的时间是 1,024 线程的线程块共享内存版本的 38 倍（2026-12-02）；模型让同一个 L2 扇区上的请求排队，给出约 32 倍。]],
  },
}

-- Exercise 10, written by the student: the histogram through per-block copies in shared memory.
local HISTOGRAM_SKELETON = [==[
// my_histogram: counts n one-byte values into 256 bins. A grid-stride loop:
// each thread takes every (gridDim.x * blockDim.x)-th value.
#define BINS 256
extern "C" __global__ void my_histogram(const unsigned char *values, unsigned *bins, int n)
{
    // TODO: count into a copy of the bins in shared memory, one per block,
    // then add the copy to `bins`: one global atomic per bin and block.
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[values[i]], 1u);
}
]==]
local HISTOGRAM_SOLUTION = [==[
// my_histogram, done: each block counts into its own copy of the bins in
// shared memory, then adds the copy to the global bins, one atomic a bin.
#define BINS 256
extern "C" __global__ void my_histogram(const unsigned char *values, unsigned *bins, int n)
{
    __shared__ unsigned local[BINS];
    for (int k = threadIdx.x; k < BINS; k += blockDim.x)
        local[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[values[i]], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < BINS; k += blockDim.x)
        atomicAdd(&bins[k], local[k]);
}
]==]

step {
  text = {
    en = [[Exercise 10, write it. The first phase is yours: kernel my_histogram, whose skeleton adds every value to its bin with an atomic in global memory. Give each block its own copy of the bins in shared memory: zero it, count into it with shared atomics, and after __syncthreads() add it to the global bins, one atomic per bin. :edit opens it; its outputs are checked against a reference on every launch. The result shows your copy by its shared atomics, its shared stores (zeroing it) and shared loads (adding it to the global bins), and the global atomics fall from one per value to one per bin and block; the model's time counts the atomics too (r.model.terms.atomics), but on a GPU compare the measured times.]],
    zh = [[习题 10，自己写。第一阶段由你来写：核函数 my_histogram 的骨架代码用全局内存上的原子操作把每个值加到它的桶里。给每个线程块一份自己的共享内存桶副本：先清零，用共享内存原子操作往里计数，在 __syncthreads() 之后再把它加到全局的桶上，每个桶一次原子操作。:edit 打开它；每次启动都会把它的输出与参考结果比对。结果里通过共享内存原子操作、共享内存写入（清零副本）和共享内存读取（把副本加到全局的桶上）来体现你的副本，全局原子操作也从每个值一次降到每个桶每个线程块一次；模型的时间也计入了原子操作（r.model.terms.atomics），但在 GPU 上要比较实测的时间。]],
  },
  kernel = {
    name = "my_histogram",
    skeleton = HISTOGRAM_SKELETON, solution = HISTOGRAM_SOLUTION,
    summary = "exercise 10: your histogram", summary_zh = "习题 10：你写的直方图",
    params = { n = { default = 1 << 20, min = 1, max = 1 << 26 } },
    buffers = { values = { type = "uchar", count = "n", fill = { "int", 0, 255 } },
                bins = { type = "unsigned", count = 256, output = true, fill = "zero" } },
    args = { "values", "bins", "n" },
    grid = 264, block = 256,
    reference = function(p, b)
      local values, bins = b.values, b.bins
      for i = 0, p.n - 1 do bins[values[i]] = bins[values[i]] + 1 end
    end,
  },
  run = [[r = launch("my_histogram"); r]],
  ask = {
    goal = { en = "my_histogram, correct, with its bins counted in a per-block copy in shared memory (the launch shows shared stores and shared loads).",
             zh = "my_histogram，结果正确，在每个线程块的共享内存副本里计数（启动结果里有共享内存写入和读取）。" },
    solution = [[r = launch("my_histogram")]],
    needs = { kernel = "my_histogram", correct = true, shared = true },
  },
  hint = {
    { en = "Declare `__shared__ unsigned local[BINS];` zero it with a loop over k = threadIdx.x, k += blockDim.x; then __syncthreads().",
      zh = "声明 `__shared__ unsigned local[BINS]`；用 k = threadIdx.x、k += blockDim.x 的循环把它清零；然后 __syncthreads()。",
      cause = "shared" },
    { en = "Count with atomicAdd(&local[values[i]], 1u) in the same loop as now; __syncthreads(); then the same kind of loop adds local[k] to bins[k].",
      zh = "在现在这个循环里改用 atomicAdd(&local[values[i]], 1u) 计数；__syncthreads()；再用同样的循环把 local[k] 加到 bins[k] 上。",
      cause = "shared" },
    { en = "A count that is off: every block must zero its copy before any thread counts into it, and add it to bins only after all have counted, with __syncthreads() after each phase; and bins[k] += local[k] must itself be an atomicAdd, since every block adds to the same bins.",
      zh = "计数不对：每个线程块必须在任何线程往副本里计数之前把副本清零，等所有线程都计完数之后再把它加到 `bins` 上，每个阶段之后都要 __syncthreads()；而且 bins[k] += local[k] 本身也必须是 `atomicAdd`，因为所有线程块都加到同一组 `bins` 上。",
      cause = "output" },
  },
  claims = {
    { text = "the skeleton, n = 2^20: correct, its one-byte values read at 1 sector a request, and no shared memory",
      holds = function(ctx)
        local r = ctx.result
        return r.correct == true and r.load.sectors_per_request == 1.0 and r.shared_store == nil
      end },
    { text = "the skeleton's 2^20 values cost 2^20 / 32 load requests (a warp reads 32 values a request)",
      holds = function(ctx) return ctx.result.load.requests == (1 << 20) // 32 end },
  },
  explain = {
    en = [[264 blocks of 256 threads each count about 15 values a thread into their own 256 bins and then add them to the global bins: 264 × 256 global atomics instead of 2^20. The per-element atomics stay in the SM's shared memory, where popular bins contend inside one block, not across the GPU. Zeroing the copy is a shared store per thread, and adding it to the global bins a shared load per thread: those are the shared accesses the result shows. On a GPU the time is the measure: launch the skeleton and yours there and compare them. The H200 measured the family's global version 6.81 times as slow as its shared one (uniform data, 2026-12-02); the model gives about 5.1.]],
    zh = [[264 个线程块、每块 256 个线程，每个线程把大约 15 个值计入本块自己的 256 个桶，再把它们加到全局的桶上：全局原子操作是 264 × 256 次，而不是 2^20 次。逐个元素的原子操作都留在 SM 的共享内存里，热门的桶只在一个线程块内部争用，而不是在整个 GPU 上争用。清零副本是每个线程一次共享内存写入，把它加到全局的桶上是每个线程一次共享内存读取：这就是结果里的共享内存访问。在 GPU 上要看时间：在那里启动骨架代码和你的版本，比较它们。H200 实测这个核函数族的全局内存版本的时间是共享内存版本的 6.81 倍（均匀分布的数据，2026-12-02）；模型给出约 5.1 倍。]],
  },
}
