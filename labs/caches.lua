-- caches: the load paths. The default path through L1, L1 bypassed with
-- load="cg" (the reference notes' -dlcm=cg), the read-only path (__ldg), and
-- constant memory's broadcast against distinct addresses; where L1 helps (a
-- stencil's neighbours) and where it cannot (streams, strides).

lab {
  title = { en = "Load paths: L1, L2, read-only and constant", zh = "读取路径：L1、L2、只读与常量" },
  topics = { "L1", "L2", "cache hints", "-dlcm=cg", "__ldg", "constant memory", "stencil" },
  minutes = 30,   -- about how long a student takes, by its authors' estimate
}

-- The sectors L1 fetched from L2 (a GPU counter), or nil without counters.
local function l2_sectors(r) return r and r.counters and r.counters.l2_read_sectors.value end

step {
  text = {
    en = [[A global load leaves the SM's load/store unit for L1 (on current GPUs one block of SRAM, L1TEX, shared with the texture and read-only paths and with shared memory), then L2, then DRAM. Sectors that L1 holds never travel to L2; sectors L2 holds never reach DRAM. A cache hint chooses, load by load, how L1 and L2 treat a sector; offset, strided and stencil1d take one as load = "...". The reference notes switch L1 off for a whole program with nvcc -Xptxas -dlcm=cg (and on with -dlcm=ca); load = "cg" does the same to one load. info("offset") lists the hints, says what each does, and shows the compiled kernels.]],
    zh = [[一次全局读从 SM 的读写单元出发，先到 L1（在现在的 GPU 上是一块 `SRAM`，即 `L1TEX`，纹理路径、只读路径和共享内存都用它），再到 L2，最后到 DRAM。L1 里已有的扇区不必去 L2；L2 里已有的扇区不必去 DRAM。缓存提示按每条读指令选择 L1 和 L2 怎样对待一个扇区；offset、strided 和 `stencil1d` 用 load = "..." 接收提示。参考笔记用 nvcc -Xptxas -dlcm=cg 为整个程序关掉 L1（用 -dlcm=ca 打开）；load = "cg" 对单条读指令做同样的事。info("offset") 列出这些提示，说明每个提示做什么，并显示编译出的核函数。]],
  },
  run = [[info("offset")]],
  ask = {
    question = { en = "Going by info(\"offset\"): which hint is for data a kernel reads once, marking its sectors to be evicted first?",
                 zh = "根据 info(\"offset\")：哪个提示是给核函数只读一次的数据用的，把它的扇区标记为最先淘汰？" },
    choices = {
      { en = "\"default\" (ld.global)", zh = "\"default\"（ld.global）" },
      { en = "\"ca\" (__ldca, ld.global.ca)", zh = "\"ca\"（__ldca，ld.global.ca）" },
      { en = "\"cg\" (__ldcg, ld.global.cg)", zh = "\"cg\"（__ldcg，ld.global.cg）" },
      { en = "\"ldg\" (__ldg, ld.global.nc)", zh = "\"ldg\"（__ldg，ld.global.nc）" },
      { en = "\"cs\" (__ldcs, ld.global.cs)", zh = "\"cs\"（__ldcs，ld.global.cs）" },
    },
    answer = 5,
  },
  hint = {
    { en = "Read the doc line of the load parameter in the info() output: it says what each hint does.",
      zh = "读 info() 输出里 load 参数的说明：它说明了每个提示做什么。" },
    { en = "Data read once is a stream.", zh = "只读一次的数据就是一个数据流。" },
  },
  explain = {
    en = [[cs (__ldcs, streaming): its sectors are the first to go when L1 and L2 need room, so a stream read once does not push out data that will be read again. cg is the one the notes use: cache in L2 only, so every sector a warp asks for goes past L1 to L2. -dlcm=cg makes that the default of every plain load; __ldcg asks for it in one place. Old GPUs had a small L1 (16–48 KB) that streams of once-read data thrashed, which is why turning it off once paid; on current GPUs L1 is large and the compiler's default is usually right.]],
    zh = [[cs（__ldcs，流式）：L1 和 L2 需要腾地方时，它的扇区最先被淘汰，所以只读一次的数据流不会把以后还要读的数据挤出去。笔记用的是 cg：只缓存在 L2，所以 warp 要的每个扇区都越过 L1 去 L2。-dlcm=cg 让每条普通读指令都默认这样做；__ldcg 只在一处这样做。老 GPU 的 L1 很小（16–48 KB），只读一次的数据流会把它冲刷掉，所以当年关掉 L1 反而划算；现在的 GPU 上 L1 很大，编译器的默认选择通常就是对的。]],
  },
}

step {
  text = {
    en = [[The notes' offset kernel, misaligned by one float, with the default path and with L1 bypassed. Predict: with load = "cg", how many sectors does one load request touch?]],
    zh = [[笔记里的 offset 核函数，错开一个 float，分别用默认路径和绕过 L1 的路径运行。先预测：load = "cg" 时，一个读请求碰到多少个扇区？]],
  },
  run = [=[rs = launch("offset", {{offset = 1, n = 262144}, {offset = 1, n = 262144, load = "cg"}}); rs[1], rs[2]]=],
  ask = {
    predict = { en = "Load sectors per request of offset 1 with load = \"cg\"?", zh = "offset 为 1、load = \"cg\" 时每个读请求的扇区数？" },
    measure = function(ctx)
      local r = find(ctx, {load = "cg"}) or ctx.result
      return r.load.sectors_per_request, r.model.load.sectors_per_request
    end,
    unit = "sectors/request",
  },
  claims = {
    { text = "offset 1: the same 81,918 load sectors with load=default and load=cg",
      holds = function(ctx)
        return find(ctx, {load = "default"}).load.sectors == 81918 and find(ctx, {load = "cg"}).load.sectors == 81918
      end },
    { text = "offset 1 load=cg: (nearly) every load sector is fetched from L2", gpu = true, counters = true,
      holds = function(ctx)
        local cg = find(ctx, {load = "cg"})
        return l2_sectors(cg) ~= nil and l2_sectors(cg) >= 0.9 * cg.load.sectors
      end },
    { text = "offset 1: the default path fetches no more sectors from L2 than load=cg", gpu = true, counters = true,
      holds = function(ctx)
        local default, cg = find(ctx, {load = "default"}), find(ctx, {load = "cg"})
        return l2_sectors(default) ~= nil and l2_sectors(default) <= 1.02 * l2_sectors(cg)
      end },
  },
  explain = {
    en = [[Still 5: a hint never changes which sectors a warp asks for, only where they are looked for. What changes shows on a GPU in the caches line of each result: the L1 hit rate and the sectors L2 served to L1 (rs[i].counters.l2_read_sectors.value). With cg every one of the 5 sectors is a trip to L2. With the default path the fifth sector, which is the next warp's first, may already sit in L1. That is what the notes' two screenshots (L1 on, L1 off) compare.]],
    zh = [[还是 5 个：提示不会改变 warp 要哪些扇区，只改变到哪里去找。变化要在 GPU 上每个结果的 “缓存”那一行里看：L1 命中率，以及 L2 送给 L1 的扇区数（rs[i].counters.l2_read_sectors.value）。用 cg 时，5 个扇区每个都要跑一趟 L2。用默认路径时，第五个扇区正是下一个 warp 的第一个扇区，它可能已经在 L1 里了。笔记里那两张截图（打开 L1、关闭 L1）比较的就是这个。]],
  },
}

step {
  text = {
    en = [[The notes found something odd: with offset 0, the loads never used L1, whether it was switched on or off. Run the aligned kernel both ways.]],
    zh = [[笔记里发现了一件怪事：offset 为 0 时，不管 L1 开还是关，读操作都没有用上 L1。把对齐的核函数用两种方式都运行一遍。]],
  },
  run = [=[rs = launch("offset", {{offset = 0, n = 262144}, {offset = 0, n = 262144, load = "cg"}}); rs[1], rs[2]]=],
  ask = {
    question = { en = "In your default-path run, how many times over do the loads ask for the bytes DRAM delivers (load sectors × 32 ÷ DRAM bytes read, to 2 decimals)?",
                 zh = "在你默认路径的那次运行里，读操作要的字节是 DRAM 送来的字节的多少倍（读扇区数 × 32 ÷ DRAM 读取字节数，保留两位小数）？" },
    answer = function(ctx)
      local r = find(ctx, "offset", { load = "default" })
      if r and r.dram.read_bytes > 0 then return 32 * r.load.sectors / r.dram.read_bytes end
    end,
    tolerance = 0.02,
  },
  hint = {
    { en = "rs[1].load.sectors and rs[1].dram.read_bytes: the loads line and the DRAM line of the first result.",
      zh = "`rs[1].load.sectors` 和 `rs[1].dram.read_bytes`：第一个结果的 “读取”行和 DRAM 行。" },
  },
  claims = {
    { text = "offset 0: the loads ask for each sector once (load sectors x 32 = DRAM bytes read, model)",
      holds = function(ctx)
        local r = find(ctx, {load = "default"})
        return 32 * r.load.sectors == r.model.dram.read_bytes
      end },
    { text = "offset 0: the default path fetches (nearly) as many sectors from L2 as load=cg", gpu = true, counters = true,
      holds = function(ctx)
        local default, cg = find(ctx, {load = "default"}), find(ctx, {load = "cg"})
        return l2_sectors(default) ~= nil and l2_sectors(default) >= 0.9 * l2_sectors(cg)
      end },
  },
  explain = {
    en = [[About 1.00: a cache only pays when something is asked for again. Here 65,536 sectors × 32 bytes is exactly the 2 MiB DRAM sends: each sector is requested once, so L1 misses on every lookup and the traffic looks the same as with L1 off. No hardware detector is needed to explain it; a stream simply has nothing to reuse.]],
    zh = [[约 1.00：缓存只有在数据被再次要到时才有用。这里 65,536 个扇区 × 32 字节正好是 DRAM 送来的 2 MiB：每个扇区只被请求一次，所以 L1 每次查找都缺失，流量看起来就和关掉 L1 一样。这不需要什么硬件识别机制来解释；数据流本来就没有可以复用的东西。]],
  },
}

step {
  text = {
    en = [[Where L1 helps: a stencil. stencil1d computes out[i] = in[i] + in[i+1] + ... + in[i+2r], so each warp makes 2r+1 loads over nearly the same sectors, and each input sector is asked for again by the next loads and by the neighbouring warp.]],
    zh = [[L1 有用的地方：模板计算。`stencil1d` 计算 out[i] = in[i] + in[i+1] + ... + in[i+2r]，所以每个 warp 要做 2r+1 次读取，读的几乎是同一批扇区，每个输入扇区还会被后面的读取和相邻的 warp 再次请求。]],
  },
  run = [[s = launch("stencil1d", {radius = 2}); s]],
  ask = {
    question = { en = "How many times over do the loads ask for the bytes DRAM delivers (load sectors × 32 / DRAM bytes read, to 1 decimal)?",
                 zh = "读操作请求的字节是 DRAM 送来字节的多少倍（读扇区数 × 32 / DRAM 读取字节数，保留一位小数）？" },
    answer = function(ctx) return 32 * ctx.result.load.sectors / ctx.result.dram.read_bytes end,
    tolerance = 0.1,
  },
  hint = {
    { en = "Five loads per warp, each about 4.8 sectors, for 4 sectors of new input.", zh = "每个 warp 五次读取，每次约 4.8 个扇区，而新的输入只有 4 个扇区。" },
  },
  claims = {
    { text = "stencil1d radius 2: the loads ask for about 6 times the bytes DRAM sends (model)",
      holds = function(ctx)
        local asked = 32 * ctx.result.load.sectors / ctx.result.model.dram.read_bytes
        return asked > 5.9 and asked < 6.1
      end },
  },
  explain = {
    en = [[About 6: five loads of about 4.8 sectors each (four of the five are misaligned by 1 to 4 floats) against 4 sectors of new data per warp. DRAM sends each byte once; the caches have to serve the other five requests. Which cache does it is what the load hint decides.]],
    zh = [[大约 6 倍：每个 warp 五次读取，每次约 4.8 个扇区（五次里有四次错开 1 到 4 个 float），而新的数据只有 4 个扇区。DRAM 每个字节只送一次；其余五次请求要靠缓存来满足。由哪一级缓存来满足，就是 load 提示决定的事。]],
  },
}

step {
  text = {
    en = [[One more check on where reuse comes from. The launch below prints the same ratio for radius 1. Change it to a radius at which L1 has nothing to reuse, so that the loads ask for each input sector only once, as the offset kernel did.]],
    zh = [[再检验一下复用从哪里来。下面的启动打印 radius 为 1 时的同一个比值。把它改成一个让 L1 无可复用的 radius，使读操作对每个输入扇区只请求一次，就像 offset 核函数那样。]],
  },
  run = [[s = launch("stencil1d", {radius = 1}); 32 * s.load.sectors / s.dram.read_bytes]],
  ask = {
    goal = { en = "stencil1d whose loads ask for each input byte once (the ratio printed is 1.0).",
             zh = "`stencil1d`，读操作对每个输入字节只请求一次（打印出的比值为 1.0）。" },
    solution = [[s = launch("stencil1d", {radius = 0})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "stencil1d" and r.params.radius == 0 and 32 * r.load.sectors <= 1.01 * r.model.dram.read_bytes
    end,
  },
  hint = {
    { en = "Each output reads 2r+1 inputs.", zh = "每个输出读 2r+1 个输入。" },
  },
  explain = {
    en = [[Radius 0 is a copy: one aligned load per element, each sector asked for once, and every hint behaves alike. Reuse, and with it L1's use, grows with the radius.]],
    zh = [[radius 为 0 就是一次复制：每个元素一次对齐的读取，每个扇区只被请求一次，各种提示表现都一样。复用（以及 L1 的作用）随 radius 增大而增大。]],
  },
}

step {
  text = {
    en = [[The same stencil through three paths: the default, the read-only path (ldg) and L2 only (cg). On a GPU, look at each result's caches line: the L1 hit rate and the sectors L2 served to L1; on the sim backend the model estimates the second, r.model.load.l2_sectors, from what a block's warps load once and share (it keeps nothing for cg). Predict: with load = "cg", how many million sectors will L1 fetch from L2?]],
    zh = [[同一个模板计算走三条路径：默认路径、只读路径（ldg）和只用 L2（cg）。在 GPU 上看每个结果的 “缓存”那一行：L1 命中率和 L2 送给 L1 的扇区数；在 sim 后端，模型估计后者，即 r.model.load.l2_sectors：一个线程块的各个 warp 只读一次、彼此共享的扇区（cg 时什么也不留）。先预测：load = "cg" 时，L1 要从 L2 取多少百万个扇区？]],
  },
  run = [=[rs = launch("stencil1d", {{load = "default"}, {load = "ldg"}, {load = "cg"}}); rs[1], rs[2], rs[3]]=],
  ask = {
    predict = { en = "Million sectors fetched from L2 with load = \"cg\"?", zh = "load = \"cg\" 时从 L2 取的扇区数（百万）？" },
    measure = function(ctx)
      local cg = find(ctx, {load = "cg"}) or ctx.result
      return (l2_sectors(cg) or cg.model.load.l2_sectors) / 1e6, cg.model.load.l2_sectors / 1e6
    end,
    unit = "M sectors",
  },
  claims = {
    { text = "stencil1d: the same load sectors and DRAM estimate for default, ldg and cg (model)",
      holds = function(ctx)
        local d, l, c = find(ctx, {load = "default"}), find(ctx, {load = "ldg"}), find(ctx, {load = "cg"})
        return d.load.sectors == l.load.sectors and d.load.sectors == c.load.sectors and
               d.model.dram.read_bytes == c.model.dram.read_bytes
      end },
    { text = "stencil1d (model): L1 passes on to L2 under a quarter of the sectors with default and ldg, every one with cg",
      holds = function(ctx)
        local d, l, c = find(ctx, {load = "default"}), find(ctx, {load = "ldg"}), find(ctx, {load = "cg"})
        return d.model.load.l2_sectors < 0.25 * d.model.load.sectors and l.model.load.l2_sectors == d.model.load.l2_sectors and
               c.model.load.l2_sectors == c.model.load.sectors
      end },
    { text = "stencil1d load=cg: L1 hits nothing, and L2 serves over half the sectors the loads ask for", gpu = true, counters = true,
      holds = function(ctx)
        local cg = find(ctx, {load = "cg"})
        return l2_sectors(cg) ~= nil and cg.counters.l1_hit_rate.value < 1 and l2_sectors(cg) > 0.5 * cg.load.sectors
      end },
    { text = "stencil1d load=default: L1 serves the repeats (L2 read sectors under 3/4 of cg's)", gpu = true, counters = true,
      holds = function(ctx)
        local default, cg = find(ctx, {load = "default"}), find(ctx, {load = "cg"})
        return l2_sectors(default) ~= nil and l2_sectors(default) < 0.75 * l2_sectors(cg)
      end },
    { text = "stencil1d load=ldg: the read-only path caches in L1 too (L2 read sectors under 3/4 of cg's)", gpu = true, counters = true,
      holds = function(ctx)
        local ldg, cg = find(ctx, {load = "ldg"}), find(ctx, {load = "cg"})
        return l2_sectors(ldg) ~= nil and l2_sectors(ldg) < 0.75 * l2_sectors(cg)
      end },
    { text = "stencil1d: load=cg reads DRAM within 10% of the default (L2 catches what L1 does not)", gpu = true,
      holds = function(ctx)
        local default, cg = find(ctx, {load = "default"}), find(ctx, {load = "cg"})
        return math.abs(cg.dram.read_bytes - default.dram.read_bytes) <= 0.1 * default.dram.read_bytes
      end },
  },
  explain = {
    en = [[The model says 25 million: every sector every load asks for, six times the input. The H200 (2026-11-30) said 15.7 million with cg, at an L1 hit rate of 0, against 4.3 million and a 71% hit rate with the default path: with cg, L1 keeps nothing for later loads, though loads that want a sector already on its way from L2 seem to share that trip, so L2 serves fewer than the loads ask for. With the default path and with ldg, L1 keeps the sectors the first loads brought and L2 sees far fewer requests. DRAM bytes stay about the same all three ways, because L2 catches whatever L1 lets through: bypassing L1 costs trips to L2 (latency and L2 bandwidth), not DRAM traffic.]],
    zh = [[模型说是 2500 万个：每次读取要的每个扇区，是输入的六倍。H200（2026-11-30）上用 cg 时是 1570 万个，L1 命中率为 0；用默认路径时是 430 万个，命中率 71%：用 cg 时 L1 不为后面的读取留任何东西，不过要的扇区如果已经在从 L2 送来的路上，这些读取似乎会共用那一趟，所以 L2 送出的比读取要的少。用默认路径和 ldg 时，L1 留住了前几次读取取回的扇区，L2 看到的请求少得多。三种方式的 DRAM 字节数差不多，因为 L1 放过去的请求都被 L2 接住了：绕过 L1 的代价是去 L2 的往返（延迟和 L2 带宽），而不是 DRAM 流量。]],
  },
}

step {
  text = {
    en = [[The read-only path: __ldg(&p[i]), or a const __restrict__ pointer the compiler can prove is only read, compiles to ld.global.nc. It is the old texture cache's path, and the data must not change while the kernel runs. Look at the ldg result of the last step beside the default one.]],
    zh = [[只读路径：__ldg(&p[i])，或编译器能证明只被读取的 `const` __restrict__ 指针，会编译成 ld.global.nc。它是过去纹理缓存的那条路径，而且数据在核函数运行期间不能改变。把上一步里 ldg 的结果和默认路径的结果放在一起看。]],
  },
  ask = {
    question = { en = "Which statement about the read-only path is true on current GPUs?", zh = "关于只读路径，哪个说法在现在的 GPU 上是对的？" },
    choices = {
      { en = "It has a read-only cache of its own next to L1, which adds to L1's capacity",
        zh = "它在 L1 旁边有自己的只读缓存，让 L1 的容量变大" },
      { en = "It caches in L1TEX even when -dlcm=cg makes ordinary loads bypass L1", zh = "即使 -dlcm=cg 让普通读取绕过 L1，它仍然缓存在 `L1TEX` 里" },
      { en = "It fetches whole 128-byte lines, so a warp's loads touch fewer sectors",
        zh = "它按整条 128 字节缓存行取数据，所以一个 warp 的读取碰到的扇区更少" },
      { en = "It is slower than a plain load, because it goes through the texture units",
        zh = "它比普通读取慢，因为它要经过纹理单元" },
    },
    answer = 2,
  },
  hint = {
    { en = "Compare the ldg result's load sectors per request with the default one's: which statement does that rule out?",
      zh = "比较 ldg 结果和默认结果的每请求读扇区数：这排除了哪个说法？" },
    { en = "On a GPU, compare their caches lines too (the L1 hit rate). On current GPUs L1, the texture cache and shared memory are one SRAM, L1TEX.",
      zh = "在 GPU 上，也比较它们的 “缓存”行（L1 命中率）。在现在的 GPU 上，L1、纹理缓存和共享内存是同一块 `SRAM`，即 `L1TEX`。" },
  },
  explain = {
    en = [[It caches in L1TEX whatever -dlcm says, which is why the notes reach for __ldg when L1 is off for the rest. Since Maxwell there is no separate read-only cache: texture, read-only and ordinary L1 data share L1TEX's SRAM. It cannot change which sectors a warp's addresses need (your two results have the same sectors per request). On sm_70 and newer a plain load is cached in L1 too, so for read-only data the two paths usually perform alike.]],
    zh = [[不管 -dlcm 怎么设置，它都缓存在 `L1TEX` 里，所以笔记在其他读取关掉 L1 时会用 __ldg。从 `Maxwell` 起就没有单独的只读缓存了：纹理数据、只读数据和普通 L1 数据共用 `L1TEX` 的同一块 `SRAM`。它不能改变一个 warp 的地址需要哪些扇区（你的两个结果每请求扇区数相同）。在 sm_70 及更新的 GPU 上，普通读取也缓存在 L1 里，所以对只读数据来说两条路径的表现通常差不多。]],
  },
}

step {
  text = {
    en = [[Where no cache can help: strided loads. With a stride of 8 floats every lane reads its own sector and no other lane or warp ever asks for it again. Run it with the default path and with cg.]],
    zh = [[任何缓存都帮不上的地方：跨步读取。步长为 8 个 float 时，每个线程读自己的扇区，没有其他线程或 warp 会再要它。分别用默认路径和 cg 运行。]],
  },
  run = [=[rs = launch("strided", {{stride = 8, n = 1 << 22}, {stride = 8, n = 1 << 22, load = "cg"}}); rs[1], rs[2]]=],
  ask = {
    question = { en = "How many DRAM bytes does each useful float cost with the default path (dram.read_bytes / n)?",
                 zh = "用默认路径时，每个有用的 float 要花多少 DRAM 字节（dram.read_bytes / n）？" },
    answer = function(ctx)
      local r = find(ctx, {load = "default"}) or ctx.result
      return r.dram.read_bytes / r.params.n
    end,
    tolerance = 1, unit = "bytes",
  },
  hint = {
    { en = "r.dram.read_bytes / r.params.n of the default-path run. Then ask which of the sectors DRAM delivers lie side by side.",
      zh = "默认路径那次运行的 r.dram.read_bytes / r.params.n。再想一想，DRAM 送来的扇区中哪些是挨在一起的。" },
  },
  claims = {
    { text = "strided 8: 32 sectors per request and 32 DRAM bytes per float with every hint (model)",
      holds = function(ctx)
        for _, r in ipairs(ctx.results) do
          if r.load.sectors_per_request ~= 32.0 or r.model.dram.read_bytes ~= 32 * r.params.n then return false end
        end
        return true
      end },
    { text = "strided 8 load=default: L1 saves no trip to L2 (L2 read sectors at least 0.9 of load sectors)", gpu = true, counters = true,
      holds = function(ctx)
        local r = find(ctx, {load = "default"})
        return l2_sectors(r) ~= nil and l2_sectors(r) >= 0.9 * r.load.sectors
      end },
  },
  explain = {
    en = [[32 bytes: the whole sector for 4 useful bytes, whatever the hint, because the sectors are what the addresses need and nothing is reused. L1 cannot turn a bad pattern into a good one; it can only avoid fetching the same sector twice. The fixes are in the layout (the aos-soa lab) or in staging through shared memory.]],
    zh = [[32 字节：为了 4 个有用字节要搬整个扇区，不管用什么提示，因为扇区是由地址决定的，而且没有任何复用。L1 不能把糟糕的访问模式变好；它只能避免把同一个扇区取两次。解决办法在数据布局（aos-soa 实验）或经由共享内存中转。]],
  },
}

step {
  text = {
    en = [[Constant memory has a cache of its own and a broadcast: when all 32 lanes read one address, one pass of the constant cache serves the warp. Distinct addresses are served one after another. broadcast reads a 64 KB table as a __constant__ array or from global memory, every lane the same element or each its own.]],
    zh = [[常量内存有自己的缓存和广播机制：当 32 个线程读同一个地址时，常量缓存传送一次就能满足整个 warp。地址各不相同时则要一个接一个地服务。broadcast 从一张 64 KB 的表里读取，这张表可以是 __constant__ 数组，也可以在全局内存里；所有线程读同一个元素，或者每个线程读自己的元素。]],
  },
  run = [[rs = launch("broadcast", {{space = "constant", pattern = "same"}, {space = "constant", pattern = "distinct"}, {space = "global", pattern = "distinct"}}); c = compare(rs[1], rs[2], rs[3]); c]],
  ask = {
    question = { en = "How many times as long as the constant broadcast (same) does the constant launch with distinct addresses take (to 2 decimals)?",
                 zh = "地址各不相同的常量内存启动，用时是常量广播（same）的多少倍（保留两位小数）？" },
    answer = function(ctx)
      local same = find(ctx, {space = "constant", pattern = "same"})
      local distinct = find(ctx, {space = "constant", pattern = "distinct"})
      return same and distinct and time_of(distinct) / time_of(same)
    end,
    tolerance = 0.03, relative = true,
  },
  hint = {
    { en = "rs[2]'s time over rs[1]'s (time_ms on a GPU, model.time_ms on the sim backend).",
      zh = "rs[2] 的时间除以 rs[1] 的（GPU 上是 time_ms，sim 后端上是 model.time_ms）。" },
    { en = "rs[2].constant.passes shows the work: 32 passes a request instead of 1.", zh = "rs[2].constant.passes 显示了工作量：每个请求 32 次传送，而不是 1 次。" },
  },
  claims = {
    { text = "constant memory: 1 pass per request for one address, 32 for distinct addresses",
      holds = function(ctx)
        local same = find(ctx, {space = "constant", pattern = "same"})
        local distinct = find(ctx, {space = "constant", pattern = "distinct"})
        return same.constant.passes == same.constant.requests and distinct.constant.passes == 32 * distinct.constant.requests
      end },
    { text = "constant memory: distinct addresses take over 1.5 times as long as a broadcast", gpu = true,
      holds = function(ctx)
        local same = find(ctx, {space = "constant", pattern = "same"})
        local distinct = find(ctx, {space = "constant", pattern = "distinct"})
        return time_of(distinct) > 1.5 * time_of(same)
      end },
    { text = "distinct addresses: global memory (4 sectors a request) is faster than constant memory", gpu = true,
      holds = function(ctx)
        local global = find(ctx, {space = "global", pattern = "distinct"})
        local constant = find(ctx, {space = "constant", pattern = "distinct"})
        return time_of(global) < time_of(constant)
      end },
  },
  explain = {
    en = [[Distinct addresses cost 32 passes a request instead of 1, and the launch takes several times as long, while global memory serves the same 32 neighbouring floats in 4 sectors (the table is small, so they come from L1 and L2). Constant memory is for values every lane reads at once: a bias, a filter's weights, a physical constant. Per-thread lookups belong in global memory, read through L1 or the read-only path.]],
    zh = [[地址各不相同时每个请求要 32 次传送而不是 1 次，启动时间也长了好几倍；而全局内存只用 4 个扇区就能送出同样 32 个相邻的 float（表很小，所以它们来自 L1 和 L2）。常量内存适合所有线程同时读取的值：偏置、滤波器权重、物理常数。每个线程各查各的表，应该放在全局内存里，经由 L1 或只读路径读取。]],
  },
}

step {
  text = {
    en = [[Summing up: a hint moves where a sector is found, never which sectors the addresses need. L1 pays where sectors are asked for again soon (stencils, neighbours, misaligned warps sharing a sector) and cannot help streams or strides; bypassing it costs trips to L2, not DRAM bytes. __ldg keeps L1 for read-only data; constant memory is for one address a warp. Type :next to finish.]],
    zh = [[小结：提示改变的是在哪里找到扇区，而不是地址需要哪些扇区。L1 在扇区很快会被再次请求时才有用（模板计算、相邻数据、共享一个扇区的错位 warp），对数据流和跨步访问无能为力；绕过它的代价是去 L2 的往返，而不是 DRAM 字节。__ldg 为只读数据保留 L1；常量内存适合一个 warp 读同一个地址。输入 :next 结束。]],
  },
}
