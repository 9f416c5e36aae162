-- writes: where stores go. Write-back in L2, write-allocate at sector
-- granularity (whole against partial sectors), streaming stores, and the
-- reference notes' DRAM-bytes puzzle explained with measurements.

lab {
  title = { en = "Stores: write-back, write-allocate, streaming", zh = "写操作：写回、写分配与流式写" },
  topics = { "stores", "write-back", "write-allocate", "streaming stores", "DRAM" },
  minutes = 30,   -- about how long a student takes, by its authors' estimate
}

step {
  text = {
    en = [[A store's way: the warp's addresses are coalesced into sectors, as for loads; L1 passes global stores straight on to L2 (it holds no dirty data; the notes describe a write-back L1, which current GPUs do not have); L2 is write-back: it keeps the written sectors, marked dirty, and sends them to DRAM only when it needs the room. An address written many times costs DRAM one write. store_policy stores one float4 per thread and reads nothing. This launch writes 1 MB. Predict: how many kB will reach DRAM while the kernel runs?]],
    zh = [[写操作的路径：和读一样，warp 的地址先合并成扇区；L1 把全局写直接转给 L2（它不保存脏数据；笔记里描述的是写回式 L1，现在的 GPU 并非如此）；L2 是写回式的：它留着写入的扇区并标记为脏，只有需要腾地方时才送往 DRAM。同一个地址写很多次，DRAM 也只写一次。store_policy 每个线程写一个 float4，什么都不读。这次启动写 1 MB。先预测：核函数运行期间会有多少 kB 到达 DRAM？]],
  },
  run = [[small = launch("store_policy", {n = 1 << 16}); small]],
  ask = {
    predict = { en = "kB written to DRAM during the kernel?", zh = "核函数运行期间写入 DRAM 的 kB 数？" },
    measure = function(ctx) return ctx.result.dram.write_bytes / 1e3, ctx.result.model.dram.write_bytes / 1e3 end,
    unit = "kB",
  },
  claims = {
    { text = "store_policy n=2^16: the model's upper bound is every stored byte, 1 MiB",
      holds = function(ctx) return ctx.result.model.dram.write_bytes == 1048576 end },
    { text = "store_policy n=2^16: under a quarter of the 1 MiB stored reaches DRAM during the kernel (L2 keeps it)",
      gpu = true, counters = true,
      holds = function(ctx) return ctx.result.dram.write_bytes < 0.25 * ctx.result.useful_bytes end },
  },
  explain = {
    en = [[The model says 1,049 kB: that is an upper bound, every sector once. On a GPU the DRAM line shows what was measured: with 1 MB in an L2 of tens of MB, expect little or nothing. The dirty sectors stay in L2 when the kernel ends and go to DRAM later, when something else needs the room, so they are not counted in this kernel's DRAM writes.]],
    zh = [[模型给出 1,049 kB：这是上限，每个扇区写一次。在 GPU 上，DRAM 那一行显示实测值：1 MB 的数据放在几十 MB 的 L2 里，预计很少甚至为零。核函数结束时脏扇区还留在 L2 里，以后别的数据需要空间时才写往 DRAM，所以不算进这个核函数的 DRAM 写入。]],
  },
}

step {
  text = {
    en = [[Now an output four times the L2: the default store_policy launch writes 268 MB. L2 cannot hold it, so it must give up dirty sectors while the kernel runs.]],
    zh = [[现在输出是 L2 的四倍：默认的 store_policy 启动写 268 MB。L2 装不下，所以它必须在核函数运行期间交出脏扇区。]],
  },
  run = [[big = launch("store_policy", {}); big]],
  ask = {
    question = { en = "What percentage of the bytes stored reached DRAM during the kernel (dram.write_bytes / useful_bytes, as a percentage)?",
                 zh = "写入的字节中有百分之多少在核函数运行期间到达了 DRAM（dram.write_bytes / useful_bytes，用百分数表示）？" },
    answer = function(ctx) return 100 * ctx.result.dram.write_bytes / ctx.result.useful_bytes end,
    tolerance = 2, unit = "%",
  },
  hint = {
    { en = "big.dram.write_bytes and big.useful_bytes.", zh = "big.dram.write_bytes 和 big.useful_bytes。" },
  },
  claims = {
    { text = "store_policy 268 MB: at least half of the bytes stored reach DRAM during the kernel", gpu = true,
      holds = function(ctx) return ctx.result.dram.write_bytes >= 0.5 * ctx.result.useful_bytes end },
  },
  explain = {
    en = [[The model's bound is 100%. On a GPU expect somewhat less: up to an L2's worth of output can still be in L2 when the kernel ends. Write-back saves DRAM traffic only when the same data is written again before it leaves L2 or the output is small; a stream of new data goes to DRAM all the same, one sector at a time.]],
    zh = [[模型的上限是 100%。在 GPU 上预计会少一些：核函数结束时，最多可能还有相当于整个 L2 容量的输出留在 L2 里。写回只有在数据离开 L2 之前又被写一次，或者输出很小时，才能节省 DRAM 流量；源源不断的新数据照样一个扇区一个扇区地写往 DRAM。]],
  },
}

step {
  text = {
    en = [[Write-allocate. L2 holds 32-byte sectors. A store that covers a sector whole replaces it; a store that covers part of one leaves L2 with a sector it only half knows, and before it can write it back it reads the sector from DRAM. fill = "full" writes contiguous float4s; fill = "partial" writes them 32 bytes apart, the first 16 bytes of every sector. Predict: how many MB will the partial launch read from DRAM? (Its kernel has no loads at all.)]],
    zh = [[写分配。L2 以 32 字节扇区为单位保存数据。一次写如果盖住整个扇区，就直接替换它；如果只盖住一部分，L2 手里就是一个只知道一半的扇区，写回之前要先从 DRAM 把这个扇区读进来。fill = "full" 写连续的 float4；fill = "partial" 让它们相隔 32 字节，只写每个扇区的前 16 字节。先预测：partial 这次启动会从 DRAM 读多少 MB？（它的核函数里没有一条读指令。）]],
  },
  run = [[rs = launch("store_policy", {{fill = "full"}, {fill = "partial"}}); show(rs[2])]],
  ask = {
    predict = { en = "MB read from DRAM by fill = \"partial\"?", zh = "fill = \"partial\" 从 DRAM 读取的 MB 数？" },
    measure = function(ctx)
      local r = find(ctx, {fill = "partial"}) or ctx.result
      return r.dram.read_bytes / 1e6, r.model.dram.read_bytes / 1e6
    end,
    unit = "MB",
  },
  claims = {
    { text = "store_policy: whole sectors read nothing (model), half sectors read 32 bytes each: twice the useful bytes",
      holds = function(ctx)
        local full, partial = find(ctx, {fill = "full"}), find(ctx, {fill = "partial"})
        return full.model.dram.read_bytes == 0 and
               partial.model.dram.write_allocate_bytes == 2 * partial.useful_bytes and
               partial.model.dram.read_bytes == partial.model.dram.write_allocate_bytes
      end },
    { text = "store_policy full: whole-sector stores read (almost) nothing from DRAM", gpu = true,
      holds = function(ctx)
        local full = find(ctx, {fill = "full"})
        return full.dram.read_bytes < 0.05 * full.useful_bytes
      end },
    { text = "store_policy partial: half-written sectors are read from DRAM (at least half the model's write-allocate)",
      gpu = true,
      holds = function(ctx)
        local partial = find(ctx, {fill = "partial"})
        return partial.dram.read_bytes >= 0.5 * partial.model.dram.write_allocate_bytes
      end },
  },
  explain = {
    en = [[The model counts 537 MB: one 32-byte read for each of the 16.8 million half-written sectors, while the full launch reads nothing. The notes say a write miss reads the whole 128-byte line; on current GPUs the unit is the sector, and a sector written whole needs no read at all, miss or not. The map shows the other cost: 32 sectors per store request where 16 would hold the data, so writes need coalescing as much as reads.]],
    zh = [[模型算出 537 MB：1680 万个只写了一半的扇区，每个读一次 32 字节；而 full 这次启动什么都不读。笔记说写缺失会读入整条 128 字节的缓存行；在现在的 GPU 上单位是扇区，一个被整个写满的扇区根本不用读，不管是否缺失。图里还显示了另一项代价：每个写请求 32 个扇区，而 16 个就装得下这些数据，所以写操作和读操作一样需要合并。]],
  },
}

step {
  text = {
    en = [[Put the partial launch's traffic in proportion: it stores 268 MB of useful data (useful_bytes).]],
    zh = [[把 partial 这次启动的流量换算成比例：它写入 268 MB 有用数据（useful_bytes）。]],
  },
  ask = {
    question = { en = "How many bytes does the partial launch read from DRAM for each useful byte it stores (two decimals)?",
                 zh = "partial 启动每写入一个有用字节，要从 DRAM 读多少字节（保留两位小数）？" },
    answer = function(ctx)
      local r = find(ctx, {fill = "partial"})
      return r and r.dram.read_bytes / r.useful_bytes
    end,
    tolerance = 0.05,
  },
  hint = {
    { en = "rs[2].dram.read_bytes / rs[2].useful_bytes.", zh = "rs[2].dram.read_bytes / rs[2].useful_bytes。" },
    { en = "Which sectors does the partial fill leave incomplete at the end of the launch, and how much of each is read?", zh = "partial 填充在启动结束时留下哪些不完整的扇区，每个要读入多少？" },
  },
  claims = {
    { text = "store_policy partial takes over 1.5 times as long as full", gpu = true,
      holds = function(ctx)
        local full, partial = find(ctx, {fill = "full"}), find(ctx, {fill = "partial"})
        return time_of(partial) > 1.5 * time_of(full)
      end },
  },
  explain = {
    en = [[About 2: each 32-byte sector is read whole to complete 16 useful bytes, and written back whole too. A write-only kernel that fills half sectors moves four times the DRAM bytes of one that fills whole sectors, and compare(rs[1], rs[2]) shows the time it costs.]],
    zh = [[大约 2：为了补全 16 个有用字节，每个 32 字节扇区都要整个读入，之后也要整个写回。一个只写、但只填半个扇区的核函数，DRAM 流量是填满整扇区的核函数的四倍；compare(rs[1], rs[2]) 可以看到它在时间上的代价。]],
  },
}

step {
  text = {
    en = [[Streaming stores. The notes say a streaming store (st.global.cs, __stcs) goes around L1 and L2 straight to DRAM and so avoids write-allocate. store = "cs" is that store and store = "cg" (__stcg) caches in L2 only. Run the partial fill with all three; on a GPU the caches line shows the sectors L2 took from L1 (counters.l2_write_sectors).]],
    zh = [[流式写。笔记说流式写（st.global.cs，__stcs）绕过 L1 和 L2 直接写 DRAM，因此不会触发写分配。store = "cs" 就是这种写，store = "cg"（__stcg）只缓存在 L2。用三种方式运行 partial 填充；在 GPU 上，“缓存”那一行显示 L2 从 L1 接收的扇区数（counters.l2_write_sectors）。]],
  },
  run = [=[rs = launch("store_policy", {{fill = "partial"}, {fill = "partial", store = "cs"}, {fill = "partial", store = "cg"}}); rs[1], rs[2], rs[3]]=],
  ask = {
    question = { en = "Going by your results: did the streaming store avoid the write-allocate reads?",
                 zh = "根据你的结果：流式写避免了写分配的读取吗？" },
    choices = {
      { en = "Yes: with store = \"cs\" the launch reads (almost) nothing from DRAM", zh = "是的：store = \"cs\" 时几乎不从 DRAM 读取" },
      { en = "No: with store = \"cs\" it reads about as much as the default store", zh = "没有：store = \"cs\" 时读取量和默认写差不多" },
    },
    answer = function(ctx)
      local default, cs = find(ctx, {fill = "partial", store = "default"}), find(ctx, {fill = "partial", store = "cs"})
      if not (default and cs) then return nil end
      return cs.dram.read_bytes < 0.5 * default.dram.read_bytes and 1 or 2
    end,
  },
  hint = {
    { en = "Compare the DRAM line of rs[1] and rs[2].", zh = "比较 rs[1] 和 rs[2] 的 DRAM 那一行。" },
  },
  claims = {
    { text = "store hints: the model counts the same sectors and DRAM bytes for default, cs and cg",
      holds = function(ctx)
        local d = find(ctx, {store = "default"})
        for _, r in ipairs(ctx.results) do
          if r.store.sectors ~= d.store.sectors or r.model.dram.read_bytes ~= d.model.dram.read_bytes then return false end
        end
        return true
      end },
    { text = "store_policy partial store=cs: still reads at least half the model's write-allocate from DRAM", gpu = true,
      holds = function(ctx)
        local cs = find(ctx, {fill = "partial", store = "cs"})
        return cs.dram.read_bytes >= 0.5 * cs.model.dram.write_allocate_bytes
      end },
    { text = "store_policy partial store=cs: every stored sector still goes to L2 (L2 write sectors at least 0.9 of store sectors)",
      gpu = true, counters = true,
      holds = function(ctx)
        local cs = find(ctx, {fill = "partial", store = "cs"})
        local c = cs.counters
        return c ~= nil and c.l2_write_sectors.value >= 0.9 * cs.store.sectors
      end },
  },
  explain = {
    en = [[On current GPUs every global store goes through L2, streaming or not, and a sector the launch leaves half-written is read from DRAM all the same. What .cs changes is how long L2 keeps the lines: they are marked to be evicted first, so a stream of output does not push out data that will be read again. On the sim backend the model counts the same bytes for every hint by construction; on a GPU the counters say it.]],
    zh = [[在现在的 GPU 上，不管是不是流式写，每次全局写都经过 L2，这次启动只写了一半的扇区照样要从 DRAM 读入。.cs 改变的是 L2 留住这些缓存行多久：它们被标记为优先淘汰，所以一串输出数据不会把以后还要读的数据挤出去。在 sim 后端上，模型对每种提示本来就算出同样的字节数；在 GPU 上由计数器来说话。]],
  },
}

step {
  text = {
    en = [[The notes' DRAM-bytes puzzle. Their offset kernel, r[i] = a[i+offset] + b[i+offset] over 2^18 floats, read just over 2 MB from DRAM at offsets 1 to 3 (and 2.40 MB once at offset 0). They expected 3 MB: a and b, plus a write-allocate read of r. Run it at offsets 0 and 1.]],
    zh = [[笔记里的 DRAM 字节之谜。他们的 offset 核函数 r[i] = a[i+offset] + b[i+offset]，2^18 个 float，在 offset 为 1 到 3 时从 DRAM 读了 2 MB 多一点（offset 为 0 时有一次是 2.40 MB）。他们原以为是 3 MB：a 和 b，再加上 r 的写分配读取。用 offset 0 和 1 运行它。]],
  },
  run = [=[rs = launch("offset", {{offset = 0, n = 262144}, {offset = 1, n = 262144}}); rs[1], rs[2]]=],
  ask = {
    question = { en = "How many MB (10^6 bytes) does offset 1 read from DRAM (to 2 decimals)?",
                 zh = "offset 为 1 时从 DRAM 读取多少 MB（10^6 字节，保留两位小数）？" },
    answer = function(ctx)
      local r = find(ctx, {offset = 1})
      return r and r.dram.read_bytes / 1e6
    end,
    tolerance = 0.03, unit = "MB",
  },
  hint = {
    { en = "rs[2].dram.read_bytes / 1e6.", zh = "rs[2].dram.read_bytes / 1e6。" },
  },
  claims = {
    { text = "offset n=2^18: a and b, 2,097,152 bytes, plus at offset 1 one 32-byte write-allocate of r's last sector (model)",
      holds = function(ctx)
        local zero, one = find(ctx, {offset = 0}), find(ctx, {offset = 1})
        return zero.model.dram.read_bytes == 2097152 and zero.model.dram.write_allocate_bytes == 0 and
               one.model.dram.read_bytes == 2097152 + 32 and one.model.dram.write_allocate_bytes == 32
      end },
    { text = "offset n=2^18, offsets 0 and 1: DRAM reads within 3% of 2,097,152 bytes (cold L2)", gpu = true,
      holds = function(ctx)
        for _, r in ipairs(ctx.results) do
          if math.abs(r.dram.read_bytes - 2097152) > 0.03 * 2097152 then return false end
        end
        return true
      end },
  },
  explain = {
    en = [[2.10 MB, at offset 0 too: 2 × 2^18 floats × 4 bytes = 2,097,152 bytes, which prints as 2.10 MB and is exactly 2 MiB, a and b and nothing else. The 2.40 MB the notes saw once was other traffic in L2, as they found the next day. (The model adds 32 bytes at offset 1: the last thread has no element to read, so it stores nothing, and the last sector of r is left 28 bytes full: one sector, one 32-byte write-allocate read.)]],
    zh = [[2.10 MB，offset 为 0 时也一样：2 × 2^18 个 float × 4 字节 = 2,097,152 字节，显示为 2.10 MB，正好是 2 MiB，就是 a 和 b，别无其他。笔记里那一次 2.40 MB 是 L2 里别的流量造成的，他们第二天也发现了。（模型在 offset 为 1 时多算了 32 字节：最后一个线程没有元素可读，所以什么也不写，r 的最后一个扇区只写了 28 字节：一个扇区，一次 32 字节的写分配读取。）]],
  },
}

step {
  text = {
    en = [[So where is the third MB, the write-allocate of r? The notes blamed cudaMemset and cudaMemcpy for leaving r in L2. Test it with the store_policy family: its output buffer is set with cudaMemset before the kernel, like r, and warplab empties L2 before every sample. fill = "full" stores float4s that fill whole 32-byte sectors; fill = "partial" leaves half of each sector unwritten. Run both, and look at the stores of rs[1] and rs[2] of the last step too.]],
    zh = [[那么第三个 MB，也就是 r 的写分配，去哪儿了？笔记认为是 `cudaMemset` 和 `cudaMemcpy` 把 r 留在了 L2 里。用 store_policy 族检验一下：它的输出缓冲区和 r 一样在核函数之前用 `cudaMemset` 设置好，而 warplab 在每次采样前都清空 L2。fill = "full" 写的 float4 填满整个 32 字节扇区；fill = "partial" 让每个扇区有一半没写。两个都运行，再看看上一步 rs[1] 和 rs[2] 的写操作。]],
  },
  run = [=[f = launch("store_policy", {{fill = "full"}, {fill = "partial"}}); f[1], f[2]]=],
  ask = {
    question = { en = "Why does the offset kernel read no DRAM bytes for r?", zh = "为什么 offset 核函数没有为 r 读取任何 DRAM 字节？" },
    choices = {
      { en = "cudaMemset left r in L2 before the kernel, so L2 already held its sectors", zh = "核函数之前 `cudaMemset` 把 r 留在了 L2 里，所以 L2 已经有它的扇区",
        why = { en = "The notes' guess. But store_policy's output is set the same way, and its partial fill still reads from DRAM: warplab empties L2 before every sample.",
                zh = "这是笔记的猜测。但 store_policy 的输出也是这样准备的，它的 partial 填充仍然从显存读取：warplab 在每次采样前都清空 L2。" } },
      { en = "Each warp stores 128 aligned bytes, four whole sectors, so L2 needs nothing from DRAM",
        zh = "每个 warp 写 128 个对齐的字节，正好四个完整扇区，所以 L2 不需要从 DRAM 取任何东西" },
      { en = "Stores go around L2 straight to DRAM, so nothing is ever read for them", zh = "写操作绕过 L2 直接写 DRAM，所以从来不需要为它们读取什么",
        why = { en = "Then the partial fill would read nothing either; it reads the unwritten halves of its sectors. Every global store passes through L2.",
                zh = "那样的话 partial 填充也什么都不用读；可它读了扇区里没写的那一半。每次全局写都经过 L2。" } },
      { en = "L1 gathers the stores of neighbouring warps into whole lines before they reach L2", zh = "L1 先把相邻 warp 的写凑成整条缓存行，再交给 L2",
        why = { en = "L1 keeps no dirty data on current GPUs: it passes each store on to L2 as it comes (the first step of this lab). It is L2 that merges partial stores, while it holds the sector.",
                zh = "在现在的 GPU 上 L1 不保存脏数据：每次写到来就转给 L2（本实验第一步）。合并部分写入的是 L2，在它还留着这个扇区的时候。" } },
    },
    answer = 2,
  },
  hint = {
    { en = "Both store_policy buffers were set up the same way before the kernel. What differs between the one that reads from DRAM and the one that does not?",
      zh = "两个 store_policy 缓冲区在核函数之前的准备方式完全一样。从 DRAM 读取的那个和不读取的那个有什么不同？" },
    { en = "Now the offset kernel's stores: how many sectors per request, and how much of each sector do they fill?",
      zh = "再看 offset 核函数的写：每请求几个扇区，每个扇区写满了多少？" },
  },
  claims = {
    { text = "store_policy: full-sector stores cause no write-allocate reads in the model, half-filled sectors do",
      holds = function(ctx)
        return ctx.results[1].model.dram.write_allocate_bytes == 0 and ctx.results[2].model.dram.write_allocate_bytes > 0
      end },
    { text = "store_policy (2^24 float4s): full-sector stores read under a tenth of the DRAM bytes of half-filled ones", gpu = true,
      holds = function(ctx) return ctx.results[1].dram.read_bytes < 0.1 * ctx.results[2].dram.read_bytes end },
  },
  explain = {
    en = [[The stores fill whole sectors, so there is nothing to allocate: the full fill reads nothing, the partial fill of a buffer set up the same way reads the unwritten halves, so it is neither a leftover in L2 nor stores that skip L2. warplab empties L2 before every sample, and the offset kernel's reads are still 2.10 MB. Write-allocate needs a store that covers part of a sector, which the notes' kernel never makes.]],
    zh = [[写操作填满的是整个扇区，所以没有什么需要分配的：整扇区写入什么也不读，同样准备的缓冲区部分写入时却要读没写的那一半，所以原因既不是 L2 里的残留，也不是绕过 L2 的写。warplab 在每次采样前都清空 L2，而 offset 核函数的读取量仍然是 2.10 MB。写分配需要一个只盖住扇区一部分的写，而笔记里的这个核函数从来不会产生这样的写。]],
  },
}

step {
  text = {
    en = [[The notes' other experiment has such a store: res[i].x = a[i] + b[i] on struct { float x, y; } (aos_soa, 2^24 records). The launch below is its struct of arrays. Change one parameter so that the stores pay write-allocate, and run it.]],
    zh = [[笔记里的另一个实验就有这样的写：struct { float x, y; } 上的 res[i].x = a[i] + b[i]（aos_soa，2^24 条记录）。下面的启动是它的数组结构体版本。只改一个参数，让写操作付出写分配的代价，然后运行。]],
  },
  run = [[w = launch("aos_soa", {layout = "soa", fields = 2, access = "write"}); w]],
  ask = {
    goal = { en = "aos_soa writing field 0, with write-allocate reads in the model's DRAM estimate (model.dram.write_allocate_bytes > 0).",
             zh = "aos_soa 写第 0 个字段，模型的 DRAM 估算里有写分配读取（model.dram.write_allocate_bytes > 0）。" },
    solution = [[w = launch("aos_soa", {layout = "aos", fields = 2, access = "write"})]],
    check = function(ctx)
      local r = ctx.result
      return r.kernel == "aos_soa" and r.params.access == "write" and r.model.dram.write_allocate_bytes > 0
    end,
  },
  hint = {
    { en = "In which layout does x cover only part of each sector?", zh = "在哪种布局下 x 只盖住每个扇区的一部分？" },
  },
  explain = {
    en = [[layout = "aos": x covers half of every sector, so L2 reads all of res (134 MB, as much as a and b together) before it can write it back. That is the third MB's real home: the AoS experiment, not the offset one (the aos-soa lab measures it against SoA).]],
    zh = [[layout = "aos"：x 只盖住每个扇区的一半，所以 L2 要把整个 `res` 读进来（134 MB，和 a、b 加起来一样多）才能写回。这才是“第三个 MB”真正所在的地方：在 AoS 实验里，而不是 offset 实验里（aos-soa 实验把它和 SoA 做了对比测量）。]],
  },
}

step {
  text = {
    en = [[The notes add that write-allocate also depends on what was read before. Compare the AoS write (x = a[i] + b[i]) with the in-place update (x += a[i]), which loads x first.]],
    zh = [[笔记还提到，写分配也取决于之前读过什么。比较 AoS 的写（x = a[i] + b[i]）和先读 x 的原地更新（x += a[i]）。]],
  },
  run = [[rs = launch("aos_soa", {{access = "write"}, {access = "update"}}); c = compare(rs[1], rs[2]); c]],
  ask = {
    question = { en = "Going by your results: which reads fewer DRAM bytes?", zh = "根据你的结果：哪个从 DRAM 读取的字节更少？" },
    choices = {
      { en = "The write, x = a[i] + b[i]", zh = "写：x = a[i] + b[i]" },
      { en = "The update, x += a[i], although it also loads x", zh = "更新：x += a[i]，尽管它还要读 x" },
    },
    answer = function(ctx)
      local write, update = find(ctx, {access = "write"}), find(ctx, {access = "update"})
      if not (write and update) then return nil end
      return update.dram.read_bytes < write.dram.read_bytes and 2 or 1
    end,
  },
  hint = {
    { en = "The update's load of x brings each sector into L2 before the store arrives.", zh = "更新先读 x，在写到来之前就把每个扇区带进了 L2。" },
  },
  claims = {
    { text = "AoS update: the partial stores find their sectors loaded and add no write-allocate (model)",
      holds = function(ctx)
        local write, update = find(ctx, {access = "write"}), find(ctx, {access = "update"})
        return update.model.dram.write_allocate_bytes == 0 and write.model.dram.write_allocate_bytes > 0 and
               update.model.dram.read_bytes < write.model.dram.read_bytes
      end },
    { text = "AoS update: DRAM reads no more than 10% over the model (the partial stores read nothing more)", gpu = true,
      holds = function(ctx)
        local update = find(ctx, {access = "update"})
        return update.dram.read_bytes <= 1.1 * update.model.dram.read_bytes
      end },
  },
  explain = {
    en = [[The update: it reads the records (134 MB) and a (67 MB), and its stores land on sectors the load has just brought into L2, so they cost no further read. The write reads a and b (134 MB) and then every record sector again for write-allocate (134 MB). A read-modify-write pays for its read once; a blind partial write pays for a read it never asked for.]],
    zh = [[更新：它读记录（134 MB）和 a（67 MB），而它的写落在读操作刚刚带进 L2 的扇区上，所以不再需要额外读取。写则读 a 和 b（134 MB），然后为了写分配再把每个记录扇区读一遍（134 MB）。读-改-写只为它的读付一次费；盲目的部分写却要为一次它从没要求过的读付费。]],
  },
}

step {
  text = {
    en = [[Summing up: stores reach DRAM through L2, which keeps them until it needs the room, so a small output may not reach DRAM during the kernel at all. L2 works in 32-byte sectors and merges the partial stores of a launch: a sector the launch writes whole, in one store or in many, needs no read; one it leaves incomplete is read from DRAM. Streaming stores change how long lines stay in L2, not whether they pass through it. To keep writes cheap, store whole, aligned, contiguous sectors. Type :next to finish.]],
    zh = [[小结：写操作经由 L2 到达 DRAM，L2 会留着它们直到需要腾地方，所以一个小的输出在核函数运行期间可能根本不到 DRAM。L2 以 32 字节扇区为单位工作，并把一次启动的部分写入合并起来：一次启动写满的扇区，不管是一次写满还是多次写满，都不需要读；没写满的要从 DRAM 读入。流式写改变的是缓存行在 L2 里停留多久，而不是它们是否经过 L2。要让写操作便宜，就写完整、对齐、连续的扇区。输入 :next 结束。]],
  },
}
