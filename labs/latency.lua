-- latency: hiding memory latency. Little's law (bandwidth = bytes in flight
-- / latency) in the model's latency term (waves of resident warps x round
-- trips), wider loads, occupancy, prefetching into registers and with
-- cp.async, and when prefetching pays.

lab {
  title = { en = "Latency: bytes in flight, occupancy, prefetch", zh = "延迟：在途字节、占用率与预取" },
  topics = { "latency", "Little's law", "bytes in flight", "occupancy", "prefetch", "cp.async" },
  minutes = 30,   -- about how long a student takes, by its authors' estimate
}

-- The limits the first question offers, by the model's stable key.
local LIMIT_KEYS = { "dram", "latency", "l2_loads", "l1_lines", "blocks" }

-- The model's latency term is the H200's round trip over the warps an SM
-- holds; on a device whose DRAM is slow for its SMs the DRAM term of a float
-- copy outweighs it, and the model finds the copy DRAM-bound.
local function dram_outweighs_latency(r, device)
  local terms = r and r.model and r.model.terms
  if terms and terms.dram >= terms.latency then
    return { en = string.format("on %s (%.0f GB/s) the model's DRAM term for a float copy (%.3f ms) outweighs its latency term (%.3f ms)",
                                device.name, device.peak_gbs, terms.dram, terms.latency),
             zh = string.format("在 %s（%.0f GB/s）上，float 复制的 DRAM 项（%.3f ms）超过延迟项（%.3f ms）",
                                device.name, device.peak_gbs, terms.dram, terms.latency) }
  end
end

local function float_copy_dram_bound(ctx)
  local r = ctx.result
  if ctx.results and find(ctx.results, {vec = 1}) then r = find(ctx.results, {vec = 1}) end
  return dram_outweighs_latency(r, ctx.device)
end

local function without_cp_async(ctx) return lacks(ctx, "cp.async", 80) end

step {
  text = {
    en = [[A load from DRAM takes hundreds of nanoseconds to come back, and a warp that needs the value waits. The GPU keeps the memory busy by having many loads outstanding at once, from many warps. Little's law ties the three together: bandwidth = bytes in flight / latency. To stream at several TB/s with that latency, megabytes must be on their way at every moment, spread over all the SMs. warplab's model estimates a launch's time as a set of terms, one for each unit that can limit it, and the largest names the limit (docs/model.md). Its latency term is Little's law: an SM holds only so many warps at once (r.model.resident_warps), so the launch's warps (r.model.warps) run in waves of them (r.model.waves), and each wave waits a round trip to memory (about 0.56 µs, the H200's), one more for every 21 or so loads a warp issues; the launch's fixed cost (about 4 µs) already holds the first wave's first round trip. The DRAM term and the latency term add up in part; the other terms overlap them. r.model.terms gives each term's milliseconds alone, and r.model.limit_key names the largest.]],
    zh = [[从 DRAM 读一个数要几百纳秒才能回来，需要这个值的 warp 只能等。GPU 让内存一直忙碌的办法是：同时有很多读请求在途，来自很多 warp。利特尔定律把三者联系起来：带宽 = 在途字节数 / 延迟。要在这样的延迟下以每秒数 TB 的速度流式读写，每时每刻都得有若干 MB 的数据在路上，分布在所有 SM 上。warplab 的模型把一次启动的时间估算成一组项，每个可能成为瓶颈的部件一项，最大的那一项就是瓶颈（docs/model.md）。它的延迟项就是利特尔定律：一个 SM 同时只能容纳有限个 warp（r.model.resident_warps），所以一次启动的 warp（r.model.warps）分成若干批（r.model.waves）运行，每一批都要等一次到内存的往返（约 0.56 µs，取自 H200），一个 warp 每多发出约 21 个读取就再多等一次；启动的固定开销（约 4 µs）已经包含了第一批的第一次往返。DRAM 项和延迟项部分相加；其他各项与它们重叠。r.model.terms 给出每一项单独的毫秒数，r.model.limit_key 指出最大的那一项。]],
  },
  run = [[r = launch("copy", {vec = 1}); r]],
  ask = {
    question = { en = "What does the model say limits a copy of one float per thread?",
                 zh = "模型认为，每个线程复制一个 float 时受什么限制？" },
    choices = {
      { en = "DRAM bandwidth", zh = "DRAM 带宽" },
      { en = "latency: too few loads in flight", zh = "延迟：在途读取太少" },
      { en = "L2 loads: the lines and sectors L1 missed", zh = "L2 读取：L1 未命中的缓存行和扇区" },
      { en = "L1 loads: lines looked up and sectors read", zh = "L1 读取：查找的缓存行与读出的扇区" },
      { en = "starting blocks: few threads each", zh = "启动线程块：每块线程太少" },
    },
    answer = function(ctx)
      for i, key in ipairs(LIMIT_KEYS) do
        if ctx.result.model.limit_key == key then return i end
      end
    end,
  },
  hint = { { en = "The time line of the result ends with 'limited by ...'; r.model.terms shows every term.",
             zh = "结果的“时间”一行末尾写着“瓶颈：……”；r.model.terms 列出每一项。" } },
  claims = {
    { text = "the model's estimate for a float copy is limited by latency (too few loads in flight)", skip = float_copy_dram_bound,
      holds = function(ctx) return ctx.result.model.limit_key == "latency" end },
  },
  explain = {
    en = [[Latency: each thread has a single 4-byte load on its way, so a wave of resident warps brings in little for each round trip it waits. On the H200 profile the launch's 2,097,152 warps run in 249 waves of 64 warps an SM (blocks of 256); the launch's fixed cost holds the first round trip, and the other 248 of 0.56 µs are 0.14 ms, more than the 0.12 ms the DRAM needs for the bytes; the two add up in part to 0.20 ms, and with the launch's 4 µs to the model's 0.21 ms. The model's H200 figures come from measured launches: one float per thread reached about 2.7 TB/s of useful bandwidth, one float4 per thread about 4.3.]],
    zh = [[延迟：每个线程只有一个 4 字节的读取在途，所以每一批驻留的 warp 每等一次往返只带回很少的数据。在 H200 的配置下，这次启动的 2,097,152 个 warp 分 249 批运行，每个 SM 每批 64 个 warp（线程块 256 个线程）；启动的固定开销包含了第一次往返，其余 248 次 0.56 µs 的往返就是 0.14 ms，比 DRAM 搬这些字节所需的 0.12 ms 还多；两者部分相加得 0.20 ms，再加上启动的 4 µs，就是模型的 0.21 ms。模型的 H200 数字来自实测的启动：每个线程一个 float 时有用带宽约 2.7 TB/s，每个线程一个 float4 时约 4.3 TB/s。]],
  },
}

step {
  text = {
    en = [[The first lever: more bytes per load. copy's vec = 2 or 4 moves a float2 or a float4 per thread: the same sectors per useful byte, two or four times the bytes in flight per thread. The warps and their waves stay the same, so each round trip brings in more. Sweep it and chart the bandwidth.]],
    zh = [[第一个杠杆：每次读更多字节。copy 的 vec = 2 或 4 让每个线程搬一个 float2 或 float4：每个有用字节对应的扇区数不变，每个线程的在途字节数变成两倍或四倍。warp 数和批数不变，所以每次往返带回的数据更多。扫描它，画出带宽。]],
  },
  run = [[s = sweep("copy", {vec = {1, 2, 4}, y = "bandwidth"})]],
  ask = {
    predict = { en = "How many times the bandwidth of vec = 1 will vec = 4 reach?",
                zh = "vec = 4 的带宽会是 vec = 1 的多少倍？" },
    measure = function(ctx)
      local one, four = find(ctx.results, {vec = 1}), find(ctx.results, {vec = 4})
      if one and four then return bandwidth_of(four) / bandwidth_of(one), four.model.bandwidth_gbs / one.model.bandwidth_gbs end
    end,
    unit = "times",
  },
  claims = {
    { text = "the model: vec = 1 is limited by latency, vec = 4 by DRAM bandwidth", skip = float_copy_dram_bound,
      holds = function(ctx)
        return find(ctx.results, {vec = 1}).model.limit_key == "latency" and
               find(ctx.results, {vec = 4}).model.limit_key == "dram"
      end },
    { text = "the model gives vec = 1 and vec = 4 the same warps, waves and latency term",
      holds = function(ctx)
        local one, four = find(ctx.results, {vec = 1}).model, find(ctx.results, {vec = 4}).model
        return one.warps == four.warps and one.waves == four.waves and one.terms.latency == four.terms.latency
      end },
    { text = "copy with float4 reaches at least 1.3 times the bandwidth of copy with float", gpu = true, skip = float_copy_dram_bound,
      holds = function(ctx)
        return bandwidth_of(find(ctx.results, {vec = 4})) >= 1.3 * bandwidth_of(find(ctx.results, {vec = 1}))
      end },
  },
  explain = {
    en = [[About 1.52 in the model (H200 profile); the H200 measured 1.60 (2026-12-02). Every sector is used in all three; what changed is how much each thread has on its way. In the model the latency term stays as it was (the same warps, the same waves, one round trip each) while the DRAM term grows with the bytes, until DRAM is the limit. That is instruction-level parallelism: one thread, more independent bytes in flight. Unrolled loops with several independent loads do the same.]],
    zh = [[模型（H200 配置）给出约 1.52；H200 实测 1.60（2026-12-02）。三种情况下每个扇区都被用满；改变的是每个线程在路上的数据量。在模型里延迟项保持不变（同样的 warp、同样的批数，每批一次往返），DRAM 项随字节数增长，直到 DRAM 成为瓶颈。这就是指令级并行：一个线程，更多互不依赖的在途字节。把循环展开、放几个互不依赖的读，效果一样。]],
  },
}

step {
  text = {
    en = [[The other lever is occupancy: how many threads an SM holds at once, each with its loads in flight. An SM of this GPU (${device}) holds at most ${sm_threads} threads and at most ${sm_blocks} blocks, and fewer when the blocks use many registers or much shared memory. With blocks of 32 threads, ${sm_blocks} blocks are only ${threads_in_blocks_of_32} threads: fewer bytes in flight. The model counts this: r.model.resident_warps is the warps an SM holds for the launch's block size, and fewer resident warps mean more waves, each waiting its round trip. It also charges every block a start, about 81 ns an SM, and 32-thread blocks are eight times as many blocks. (In the compare() table, a is the 256-thread blocks, b the 32-thread ones.)]],
    zh = [[另一个杠杆是占用率：一个 SM 同时容纳多少线程，每个线程都有自己的在途读请求。这块 GPU（${device}）的一个 SM 最多容纳 ${sm_threads} 个线程、最多 ${sm_blocks} 个线程块；线程块用的寄存器或共享内存多时还会更少。线程块只有 32 个线程时，${sm_blocks} 个线程块才 ${threads_in_blocks_of_32} 个线程：在途字节更少。模型把这一点算在内：r.model.resident_warps 是按这次启动的线程块大小一个 SM 能容纳的 warp 数，驻留的 warp 越少，批数越多，每批都要等一次往返。模型还给每个线程块记一次启动开销，每个 SM 约 81 ns，而 32 线程的线程块数量是 256 线程时的八倍。（compare() 表里 a 是 256 线程的线程块，b 是 32 线程的。）]],
  },
  run = [[s = launch("copy", {{vec = 1, block = 256}, {vec = 1, block = 32}}); c = compare(s[1], s[2]); c]],
  ask = {
    question = { en = "The time with blocks of 32 threads divided by the time with blocks of 256 (two decimals)?",
                 zh = "32 线程的线程块所用时间除以 256 线程的线程块所用时间（保留两位小数）？" },
    answer = function(ctx)
      local big, small = find(ctx.results, {vec = 1, block = 256}), find(ctx.results, {vec = 1, block = 32})
      return big and small and time_of(small) / time_of(big)
    end,
    tolerance = 0.03, relative = true,
  },
  hint = { { en = "The b/a column of the time row in the compare() table.", zh = "compare() 表里时间一行的 b/a 一栏。" } },
  claims = {
    { text = "the model: an SM holds fewer warps with blocks of 32 threads than with blocks of 256, and the launch takes more waves",
      holds = function(ctx)
        local big, small = find(ctx.results, {vec = 1, block = 256}).model, find(ctx.results, {vec = 1, block = 32}).model
        return small.resident_warps < big.resident_warps and small.waves > big.waves
      end },
    { text = "the model: copy (float) with blocks of 32 threads takes at least 1.15 times as long as with blocks of 256",
      holds = function(ctx)
        local big, small = find(ctx.results, {vec = 1, block = 256}), find(ctx.results, {vec = 1, block = 32})
        return small.model.time_ms >= 1.15 * big.model.time_ms
      end },
    { text = "copy (float) with blocks of 32 threads takes at least 1.15 times as long as with blocks of 256", gpu = true,
      holds = function(ctx)
        local big, small = find(ctx.results, {vec = 1, block = 256}), find(ctx.results, {vec = 1, block = 32})
        return time_of(small) >= 1.15 * time_of(big)
      end },
  },
  explain = {
    en = [[About 6.2 in the model (H200 profile): with 32-thread blocks an SM holds 32 warps instead of 64, so the latency term doubles (497 waves instead of 249), and starting eight times as many blocks, about 15,900 an SM at 81 ns each, becomes the limit: 1.29 ms against 0.21 ms. The H200 measured 6.31 (2026-12-02: 1.26 ms against 0.200 ms). The 32-thread blocks leave half of every SM's thread slots empty, so a copy that was already short of bytes in flight waits twice as many round trips, and the SM spends its time starting tiny blocks. The chapter lists occupancy first among the ways to hide latency: while one warp waits, another issues.]],
    zh = [[模型（H200 配置）给出约 6.2：32 线程的线程块让一个 SM 只容纳 32 个 warp 而不是 64 个，所以延迟项翻倍（497 批而不是 249 批），而启动八倍数量的线程块（每个 SM 约 15,900 个，每个约 81 ns）成了瓶颈：1.29 ms 对 0.21 ms。H200 实测 6.31（2026-12-02：1.26 ms 对 0.200 ms）。32 线程的线程块让每个 SM 一半的线程槽位空着，一个本来在途字节就不够的复制要多等一倍的往返，SM 还要花时间启动一个个很小的线程块。本章把占用率列为隐藏延迟的第一种办法：一个 warp 等待时，另一个 warp 发出指令。]],
  },
}

step {
  text = {
    en = [[Prefetching issues the next loads before the current data is used. The prefetch family streams 4 consecutive chunks per block, out[i] = work(in[i]) with 8 multiply-adds: "none" loads a chunk, computes, stores, then loads the next (in and out may overlap, so the compiler cannot move the next load above the store, and a warp issues its instructions in order: the next load leaves only after this chunk's work, which waits for this chunk's data); "register" loads the next chunk into a register before computing this one; "cp_async" copies the next chunk into shared memory with cp.async (sm_80 and newer), which needs no register, and waits for it with a pipeline barrier. The chapter's own prefetch example loads the next chunk into shared memory and then never reads it: the current element is loaded from global memory again. Here the prefetched data is what gets used. Its cp.async example does not compile: it writes the PTX instructions cp.async.cg.shared.global, cp.async.commit_group and cp.async.wait_group as if they were C++ statements. In CUDA C++ they are __pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior, as in this family's source (info("prefetch").source), or cuda::memcpy_async; and a .cg copy moves 16 bytes, no fewer. On a GPU older than sm_80 the experiment leaves cp_async out: can(name, params) says whether this GPU can run a launch, and why not.]],
    zh = [[预取就是在使用当前数据之前，先发出下一批读取。prefetch 族让每个线程块处理 4 个连续的数据块，out[i] = work(in[i])，含 8 次乘加：“none”读一块、计算、写回，再读下一块（`in` 和 `out` 可能重叠，所以编译器不能把下一次读移到写的前面，而 warp 按顺序发出指令：下一次读要等这一块的计算发出之后才发出，而计算要等这一块的数据到达）；“register”在计算这一块之前，先把下一块读进寄存器；“cp_async”用 cp.async（sm_80 及更新）把下一块异步复制进共享内存，不占寄存器，再用流水线屏障等待它。本章自己的预取示例把下一块读进共享内存，之后却从不读它：当前元素又从全局内存读了一遍。这里预取进来的数据真的被用上了。本章的 cp.async 示例也无法编译：它把 PTX 指令 cp.async.cg.shared.global、cp.async.commit_group 和 cp.async.wait_group 当成 C++ 语句来写。在 CUDA C++ 里它们是 __pipeline_memcpy_async、__pipeline_commit 和 __pipeline_wait_prior，就像这个核函数族的源代码里那样（info("prefetch").source），或者用 `cuda::memcpy_async`；而且 .cg 复制每次搬 16 字节，不能更少。在 sm_80 之前的 GPU 上，实验代码不运行 cp_async：can(name, params) 说明这块 GPU 能否运行某次启动，不能时说明原因。]],
  },
  run = [[v = {{variant = "none"}, {variant = "register"}}; if can("prefetch", {variant = "cp_async"}) then v[3] = {variant = "cp_async"} end; s = launch("prefetch", v); c = compare(table.unpack(s)); c]],
  ask = {
    question = { en = "What does prefetching change?", zh = "预取改变了什么？" },
    choices = {
      { en = "The DRAM bytes: the next chunk is already in L2 when it is needed, so it is not read from DRAM again.",
        zh = "DRAM 字节数：下一块在需要时已经在 L2 里，所以不必再从 DRAM 读。" },
      { en = "The sectors per request: loads issued together for two chunks coalesce better.",
        zh = "每请求扇区数：为两块数据一起发出的读合并得更好。" },
      { en = "Only when the loads are issued: the same requests, sectors and DRAM bytes.",
        zh = "只改变读请求发出的时机：请求数、扇区数和 DRAM 字节数都一样。" },
      { en = "The number of load requests: one instruction now fetches the chunk and the next.",
        zh = "读请求数：现在一条指令就取回这一块和下一块。" },
    },
    answer = function(ctx)
      local none, reg = find(ctx.results, {variant = "none"}), find(ctx.results, {variant = "register"})
      if not (none and reg) then return nil end
      if reg.load.requests < none.load.requests then return 4 end
      if reg.load.sectors_per_request < none.load.sectors_per_request then return 2 end
      if reg.model.dram.read_bytes < none.model.dram.read_bytes then return 1 end
      return 3
    end,
  },
  hint = {
    { en = "Read the compare() table: which rows differ between the three variants, and which stay the same?",
      zh = "读 compare() 表：三个版本之间哪几行不同，哪几行相同？" },
  },
  claims = {
    { text = "the model counts the same global sectors read (loads, or cp.async's copies) and stored for every variant the GPU ran (cp_async from sm_80)",
      holds = function(ctx)
        local none = find(ctx.results, {variant = "none"})
        local function read(r) return r.model.load.sectors end   -- cp.async's copies count as loads too
        for _, r in ipairs(ctx.results) do
          if read(r) ~= read(none) or r.model.store.sectors ~= none.model.store.sectors then
            return false
          end
        end
        return #ctx.results == (without_cp_async(ctx) and 2 or 3)
      end },
    { text = "the model gives every variant the same DRAM term, and register the same latency term and the same time as none",
      holds = function(ctx)
        local none = find(ctx.results, {variant = "none"}).model
        for _, r in ipairs(ctx.results) do
          if r.model.terms.dram ~= none.terms.dram then return false end
        end
        local register = find(ctx.results, {variant = "register"}).model
        return register.terms.latency == none.terms.latency and register.time_ms == none.time_ms
      end },
    { skip = without_cp_async, text = "the model gives cp_async half of none's round trips a wave (a chain of 2, not 4), a shorter latency term and a shorter time",
      holds = function(ctx)
        local none, cp = find(ctx.results, {variant = "none"}).model, find(ctx.results, {variant = "cp_async"}).model
        -- (waves x round trips - 1) round trips of one length: the same length for 4 a wave and for 2
        local trip_none, trip_cp = none.terms.latency / (4 * none.waves - 1), cp.terms.latency / (2 * cp.waves - 1)
        return cp.waves == none.waves and math.abs(trip_cp / trip_none - 1) < 1e-6 and
               cp.terms.latency < none.terms.latency and cp.time_ms < none.time_ms
      end },
    { text = "prefetching the next chunk into a register is no slower than no prefetch (within 3%)", gpu = true,
      holds = function(ctx)
        return time_of(find(ctx.results, {variant = "register"})) <= 1.03 * time_of(find(ctx.results, {variant = "none"}))
      end },
    { skip = without_cp_async, text = "prefetching the next chunk with cp.async is faster than no prefetch", gpu = true,
      holds = function(ctx)
        return time_of(find(ctx.results, {variant = "cp_async"})) < time_of(find(ctx.results, {variant = "none"}))
      end },
  },
  explain = {
    en = [[Only the timing of the loads: the same requests, the same sectors, the same DRAM bytes. cp_async's copies are loads that write shared memory directly (LDGSTS): the GPU counts them among the loads, and the card shows them on a cp.async row as well; they are no shared-memory stores. cp_async adds a shared-memory load per element and two chunks of staging space per block (2 x 256 floats, far below what would limit occupancy). The model gives all three variants the same DRAM term, but not the same latency term (look at r.model.terms of each): it charges none and register a chain of 4 round trips a wave, one for each chunk, and cp_async a chain of 2, because cp.async keeps two chunks in flight and its copies do not hold the warp (the next step looks at these chains). So on the H200 profile the model gives cp_async 0.72 of none's time, limited by DRAM bandwidth, and register the same time as none. On the H200 (2026-12-02) none and register both took 0.044 ms, within noise of each other, while cp_async took 0.037 ms, 0.84 of none's time: the model gets the order right and makes cp_async's gain larger than measured. On a GPU, look at the time row's verdicts: cp_async keeps two chunks' loads in flight instead of one, and whether that shows in the time depends on how much latency the other warps already hide.]],
    zh = [[只改变读请求发出的时机：请求数、扇区数、DRAM 字节数都一样。cp_async 的复制是直接写入共享内存的读取（LDGSTS）：GPU 把它们计在读取里，卡片上也在 cp.async 一行单独列出；它们不算共享内存写入。cp_async 每个元素多一次共享内存读，每个线程块多两块暂存空间（2 x 256 个 float，远不到会限制占用率的程度）。模型给三个版本的 DRAM 项都一样，但延迟项不一样（看每个结果的 r.model.terms）：它给 none 和 register 每批记 4 次接连的往返，每块数据一次；给 cp_async 记 2 次，因为 cp.async 让两块数据同时在途，而且它的复制不让 warp 等待（下一步细看这些链）。所以在 H200 配置下，模型给出 cp_async 的时间是 none 的 0.72 倍，受 DRAM 带宽限制；register 的时间与 none 相同。在 H200 上（2026-12-02），none 和 register 都用了 0.044 ms，差别在噪声之内，而 cp_async 用了 0.037 ms，是 none 的 0.84 倍：模型给出的快慢顺序是对的，但把 cp_async 的收益估得比实测大。在 GPU 上看时间一行的判定：cp_async 让两块数据的读取同时在途，而不是一块；这能否体现在时间上，取决于其他 warp 已经隐藏了多少延迟。]],
  },
}

step {
  text = {
    en = [[How does the model see the three variants? Its latency term counts round trips: a wave of warps waits one for its first load and another for every 21 or so loads more, as if each warp kept that many of its loads on their way at once; but when a family's loads must wait for each other (a chain), it counts one round trip for each load of the chain, if that is more. Count what one warp of the prefetch family asks for.]],
    zh = [[模型是怎么看这三个版本的？它的延迟项数的是往返次数：一批 warp 的第一个读取要等一次往返，之后每多约 21 个读取再等一次，好像每个 warp 都能同时让那么多读取在途；但如果一个核函数族的读取必须一个等一个（一条链），它就给链上的每个读取记一次往返，只要这样更多。数一数 prefetch 族的一个 warp 要读多少次。]],
  },
  run = [[r = launch("prefetch", {variant = "none"}); r]],
  ask = {
    question = { en = "How many load requests does each warp issue (r.load.requests / r.model.warps)?",
                 zh = "每个 warp 发出多少个读请求（r.load.requests / r.model.warps）？" },
    answer = function(ctx)
      local r = ctx.result
      return r.kernel == "prefetch" and r.load.requests / r.model.warps or nil
    end,
    tolerance = 0.1, unit = "requests",
  },
  hint = { { en = "Both numbers are in your result: r.load.requests and r.model.warps.", zh = "两个数都在你的结果里：r.load.requests 和 r.model.warps。" } },
  claims = {
    { text = "the model: prefetch issues 4 load requests a warp and reads 16 DRAM bytes a thread",
      holds = function(ctx)
        local r = ctx.result
        return r.model.dram.read_bytes == 4 * r.params.n and r.load.requests == 4 * r.model.warps
      end },
  },
  explain = {
    en = [[4: far below the 21 or so the model lets a warp keep in flight, so counting loads alone it would charge each wave one round trip. That is the ideal prefetching aims at, not what "none" does: the compiler keeps each load below the store before it (they may alias) and the warp issues in order, so the next load leaves only once this chunk's data has come back and been worked on. It has one 4-byte load on its way at a time, a chain of 4 round trips a wave. The model takes that chain from the family: 4 for none, 4 for register too (on the H200 it was no faster than none), and 2 for cp_async, whose copies keep two chunks on their way and are no loads the warp waits for. r.model.terms.latency shows it: about 0.035 ms for none and register, 0.017 ms for cp_async (H200 profile). Each family declares its chain; the model does not find it in the code (on the H200, cp_async took 0.84 of none's time; the model gives 0.72).]],
    zh = [[4 个：远少于模型允许一个 warp 同时在途的约 21 个，所以只数读取的话，模型给每一批只记一次往返。这是预取追求的理想情况，而不是“none”实际的样子：编译器让每次读都留在它前面的写之后（两者可能重叠），而 warp 按顺序发出指令，所以下一次读要等这一块的数据回来并算完才发出。每次只有一个 4 字节的读在途，每批是一条 4 次往返的链。模型从核函数族取得这条链：none 是 4，register 也是 4（在 H200 上它并不比 none 快），cp_async 是 2，它的复制让两块数据同时在途，也不是 warp 要等待的读取。r.model.terms.latency 显示了这一点：none 和 register 约 0.035 ms，cp_async 约 0.017 ms（H200 配置）。每个核函数族自己声明它的链；模型并不从代码里找出它（在 H200 上，cp_async 用的时间是 none 的 0.84 倍；模型给出 0.72 倍）。]],
  },
}

step {
  text = {
    en = [[Put Little's law to work in the model. Change only vec in this launch so that the model's estimate is no longer limited by latency: move more bytes per round trip.]],
    zh = [[在模型里用一用利特尔定律。只修改这次启动的 vec，让模型的估算不再受延迟限制：每次往返搬更多字节。]],
  },
  run = [[r = launch("copy", {vec = 1}); r.model.limit_key]],
  ask = {
    goal = { en = "copy with the default n, r.model.limit_key no longer 'latency'.",
             zh = "copy，n 取默认值，r.model.limit_key 不再是 'latency'。" },
    solution = [[launch("copy", {vec = 2})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "copy" and r.params.n == 1 << 26 and r.model.limit_key ~= "latency"
    end,
  },
  hint = {
    { en = "vec = 2 doubles the bytes each thread has on its way; the warps and waves stay the same.",
      zh = "vec = 2 让每个线程在途的字节数翻倍；warp 数和批数不变。" },
  },
  explain = {
    en = [[With vec = 2 each round trip brings twice the bytes: the latency term stays, the DRAM term doubles and becomes the larger, so the model calls the copy DRAM-bound. More threads of one float would not do it: in the model they are more waves of the same resident warps, each with its round trip; on a GPU too, threads help only up to the occupancy limit, which is why the bytes each thread keeps in flight are the lever you control.]],
    zh = [[vec = 2 时每次往返带回两倍的字节：延迟项不变，DRAM 项翻倍并成为较大的一项，所以模型认为这次复制受 DRAM 带宽限制。增加每个线程只搬一个 float 的线程数做不到这一点：在模型里那只是同样多驻留 warp 的更多批，每批都要一次往返；在 GPU 上，线程也只在占用率上限以内有用，所以每个线程的在途字节数才是你能掌控的杠杆。]],
  },
}

step {
  text = {
    en = [[Exercise 6 of the chapter: a stream reads each element once and throws it away. Is hardware prefetching useful there, and does software prefetching make sense? The launch below puts the two ends of step 2 side by side on the same stream, 256 MiB read once: 2^26 floats, one a thread, and 2^24 float4s, one a thread.]],
    zh = [[本章第 6 题：一个流式程序每个元素只读一次，用完就丢。硬件预取在这里有用吗？软件预取有意义吗？下面的启动把第 2 步的两端放在同一个流上：256 MiB 只读一次，2^26 个 float，每个线程一个；以及 2^24 个 float4，每个线程一个。]],
  },
  run = [[c = compare(launch("copy", {vec = 1}), launch("copy", {vec = 4, n = 1 << 24})); c]],
  ask = {
    question = { en = "Which answer fits your runs?", zh = "哪个答案符合你的运行结果？" },
    choices = {
      { en = "Neither: data used once gains nothing from caching or from prefetching.",
        zh = "都没有用：只用一次的数据从缓存和预取中都得不到好处。",
        why = { en = "Half right: keeping the data gains nothing. But look at the time row: the float4 stream moved the same bytes in less time, because each thread had more of them on their way at once. Issuing loads earlier does that too.",
                zh = "对了一半：留住数据确实没有好处。但看时间那一行：float4 的流搬同样的字节用时更短，因为每个线程同时有更多字节在途。提前发出读请求也是这个作用。" } },
      { en = "Caching gains nothing, but issuing loads early pays whenever the bytes in flight are too few to cover the latency.",
        zh = "缓存得不到好处，但只要在途字节不够覆盖延迟，提前发出读请求就有回报。" },
      { en = "Caching pays: the L2 keeps the stream, so the second half of it is served from cache.",
        zh = "缓存有回报：L2 留住了数据流，所以后一半从缓存里读。",
        why = { en = "Look at the DRAM row: both launches read every byte of the 256 MiB from DRAM, far more than the L2 holds, and no byte is read twice.",
                zh = "看 DRAM 那一行：两次启动都从显存读了这 256 MiB 的每一个字节，远超 L2 的容量，而且没有哪个字节被读两次。" } },
      { en = "Only hardware prefetching: the GPU detects the stream and fetches ahead, so issuing loads earlier in software changes nothing.",
        zh = "只有硬件预取有用：GPU 会识别数据流并提前取数据，所以在软件里提前发出读请求什么也不会改变。",
        why = { en = "If the GPU fetched ahead by itself, the float and float4 streams would take the same time; they do not. A GPU hides latency with many warps and the bytes each keeps in flight, not with a prefetcher you can count on.",
                zh = "如果 GPU 会自己提前取数据，float 和 float4 两个流的时间就会一样；可它们并不一样。GPU 隐藏延迟靠的是大量 warp 以及每个 warp 在途的字节，而不是一个你可以依赖的预取器。" } },
    },
    answer = 2,
  },
  claims = {
    { text = "the model: 2^26 floats and 2^24 float4s read the same DRAM bytes, and the float4 stream takes at most 0.8 of the time",
      skip = function(ctx) return dram_outweighs_latency(launch("copy", {vec = 1}), ctx.device) end,
      holds = function(ctx)
        local floats, float4s = launch("copy", {vec = 1}), launch("copy", {vec = 4, n = 1 << 24})
        return floats.model.dram.read_bytes == float4s.model.dram.read_bytes and
               float4s.model.time_ms <= 0.8 * floats.model.time_ms
      end },
    { text = "2^24 float4s are copied faster than 2^26 floats, the same bytes", gpu = true,
      skip = function(ctx) return dram_outweighs_latency(launch("copy", {vec = 1}), ctx.device) end,
      holds = function(ctx)
        return time_of(launch("copy", {vec = 4, n = 1 << 24})) < time_of(launch("copy", {vec = 1}))
      end },
  },
  hint = {
    { en = "In your comparison, what changed between vec = 1 and vec = 4, and what did not (sectors, DRAM bytes, time)?",
      zh = "在你的比较里，vec = 1 和 vec = 4 之间什么变了，什么没变（扇区、DRAM 字节、时间）？" },
    { en = "vec = 4 puts four times the bytes of each thread on their way at once: that is what a prefetch does too.",
      zh = "vec = 4 让每个线程同时有四倍的字节在途：预取做的也是这件事。" },
  },
  explain = {
    en = [[A stream has no reuse, so keeping its data in a cache is worthless; but its speed is set by Little's law, and prefetching is one way to have more bytes on their way, next to wider loads and higher occupancy. When those already fill the pipe (a float4 copy at full occupancy), prefetching has little left to gain. A GPU hides latency mostly with many warps rather than with a hardware prefetcher you can count on, so measure before adding one.]],
    zh = [[流式程序没有复用，把它的数据留在缓存里毫无价值；但它的速度由 利特尔定律决定，而预取和更宽的读取、更高的占用率一样，都是让更多字节在途的办法。当那些办法已经把管道填满时（满占用率下的 float4 复制），预取就没有多少可赚的了。GPU 主要靠大量 warp 来隐藏延迟，而不是靠一个你可以依赖的硬件预取器，所以加预取之前先测量。]],
  },
}

step {
  text = {
    en = [[Summing up, the ways to hide memory latency: more warps per SM (occupancy: mind the thread, block, register and shared-memory limits), more independent bytes per thread (wider loads, unrolled loads), loads issued early (a register prefetch, or cp.async into shared memory, which also frees the registers), and on the host, several streams whose kernels and copies overlap. Each one raises the bytes in flight; none of them moves fewer bytes. Type :next to finish.]],
    zh = [[小结，隐藏内存延迟的办法有：每个 SM 更多的 warp（占用率：注意线程数、线程块数、寄存器和共享内存的上限），每个线程更多互不依赖的字节（更宽的读取、展开的读取），提前发出读请求（预取到寄存器，或用 cp.async 取到共享内存，后者还能省下寄存器），以及在主机端用多个流让核函数与拷贝重叠。每一种都提高了在途字节数；没有一种减少了搬运的字节。输入 :next 结束。]],
  },
}
