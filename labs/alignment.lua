-- alignment: cudaMalloc's alignment, the offset experiment, and what the
-- fifth sector costs in DRAM bytes.

lab {
  title = { en = "Alignment and the fifth sector", zh = "对齐与第五个扇区" },
  topics = { "alignment", "sectors", "offset", "DRAM" },
  minutes = 15,   -- about how long a student takes, by its authors' estimate
}

-- Which statement an alloc_alignment() list bears out (the choices of step 1):
-- 2 when some address is under 256-byte aligned, 3 when all are 256 exactly, else 1.
local function alignment_choice(list)
  if type(list) ~= "table" then return nil end
  local least, most = math.huge, 0
  for _, a in ipairs(list) do
    least, most = math.min(least, a.alignment), math.max(most, a.alignment)
  end
  if least < 256 then return 2 end
  return most == 256 and 3 or 1
end

step {
  text = {
    en = [[cudaMalloc promises that every buffer it returns starts on a boundary of at least 256 bytes, so element 0 of a float array begins a 32-byte sector and a 128-byte line. A driver may give more than it promises. alloc_alignment(count, bytes) asks for count allocations of bytes each and shows, for each address, the largest power of two it is a multiple of. Run it as it is: eight allocations of 1,000 bytes.]],
    zh = [[`cudaMalloc` 保证它返回的每个缓冲区都至少从 256 字节边界开始，所以 float 数组的第 0 个元素正好位于一个 32 字节扇区和一条 128 字节缓存行的开头。驱动给的可能比它保证的多。`alloc_alignment(count, bytes)` 申请 `count` 块、每块 bytes 字节的内存，并对每个地址显示它是哪个最大的 2 的幂的倍数。照原样运行：八块 1,000 字节的内存。]],
  },
  run = [[a = alloc_alignment(8, 1000); a]],
  ask = {
    question = { en = "What does your list show?", zh = "你的列表显示了什么？" },
    choices = {
      { en = "All eight addresses are multiples of 256, and some of a larger power of two",
        zh = "八个地址都是 256 的倍数，其中一些还是更大的 2 的幂的倍数" },
      { en = "Some addresses are aligned to less than 256 bytes: the promise holds only for large allocations",
        zh = "有些地址的对齐不到 256 字节：这个保证只对大的分配成立" },
      { en = "All eight are multiples of 256, and none of a larger power of two", zh = "八个地址都是 256 的倍数，但没有一个是更大的 2 的幂的倍数" },
      { en = "Each address is a multiple of the allocation size, 1,000 bytes", zh = "每个地址都是分配大小 1,000 字节的倍数" },
    },
    answer = alignment_choice(alloc_alignment(8, 1000)),   -- the same eight allocations, made as the lab opens
  },
  hint = {
    { en = "Read the 'aligned to' column of your list: its smallest value, and its largest.",
      zh = "读你的列表里“对齐到”那一列：最小值是多少，最大值是多少。" },
    { en = "A power of two divides every address when it divides the least aligned one.", zh = "一个 2 的幂能整除全部地址，当且仅当它能整除对齐最小的那个地址。" },
  },
  claims = {
    { text = "alloc_alignment(8, 1000): every address is aligned to at least the 256 bytes cudaMalloc promises",
      holds = function() return alignment_choice(alloc_alignment(8, 1000)) ~= 2 end },
  },
  explain = {
    en = [[Every address is a multiple of at least 256 bytes, as promised: two 128-byte lines, eight sectors. The least aligned address says what all of them share; a driver often gives more, never less. The sim backend models cudaMalloc handing out blocks rounded up to 512 bytes, so 1,000-byte allocations land 1,024 bytes apart; a real driver decides for itself, but never gives less than 256. Either way element 0 always starts a sector; it is an offset inside the buffer, next, that moves it.]],
    zh = [[每个地址都至少是 256 字节的倍数，和保证的一样：两条 128 字节缓存行，八个扇区。对齐最小的那个地址说明了它们共有的对齐；驱动经常给得更多，但从不更少。模拟后端把 `cudaMalloc` 建模为按 512 字节向上取整分配，所以 1,000 字节的分配相隔 1,024 字节；真实的驱动自己决定，但从不少于 256。无论哪种情况，第 0 个元素总是从扇区开头开始；下面会看到，移动它的是缓冲区内部的偏移。]],
  },
}

step {
  text = {
    en = [[Now the reference notes' experiment: r[i] = a[i+offset] + b[i+offset]. With offset 0 each warp reads 128 aligned bytes from a and from b. Before you run it with offset 1, predict: how many sectors will one load request touch?]],
    zh = [[现在做参考笔记里的实验：r[i] = a[i+offset] + b[i+offset]。offset 为 0 时，每个 warp 从 a 和 b 各读 128 个对齐的字节。在用 offset 1 运行之前，先预测：一个读请求会碰到多少个扇区？]],
  },
  run = [[r = launch("offset", {offset = 1, n = 262144}); r]],
  ask = {
    predict = { en = "Load sectors per request with offset 1?", zh = "offset 为 1 时每个读请求的扇区数？" },
    measure = function(ctx) return ctx.result.load.sectors_per_request, ctx.result.model.load.sectors_per_request end,
    unit = "sectors/request",
  },
  claims = {
    { text = "offset 1 touches 5 sectors per load request",
      holds = function(ctx) return ctx.result.load.sectors_per_request == 5.0 end },
  },
  explain = {
    en = [[The warp still asks for 128 bytes, but they start 4 bytes into a sector: bytes 4..131 cover sectors 0 to 4, five of them. show(r) draws it: the first cell of the first line and seven cells of the fifth sector are fetched and unused.]],
    zh = [[warp 要的还是 128 字节，但它们从扇区里的第 4 个字节开始：字节 4..131 跨越扇区 0 到 4，共 5 个。show(r) 能画出来：第一条缓存行的第一个格子和第五个扇区的七个格子被取回却没有用到。]],
  },
}

step {
  text = {
    en = [[Sweep the offset from 0 to 32 and watch which offsets come back to 4 sectors per request.]],
    zh = [[把 offset 从 0 扫到 32，看看哪些 offset 又回到每请求 4 个扇区。]],
  },
  run = [[s = sweep("offset", {offset = range(0, 32), n = 262144})]],
  ask = {
    question = { en = "Which is the smallest offset above 0 that gives 4 sectors per request again?",
                 zh = "大于 0 的 offset 中，最小的哪个又回到每请求 4 个扇区？" },
    answer = function(ctx)
      return extreme(ctx.results, "offset", function(r) return r.params.offset > 0 and r.load.sectors_per_request <= 4.0 end)
    end,
    tolerance = 0,
  },
  hint = {
    { en = "A sector is 32 bytes; a float is 4.", zh = "一个扇区 32 字节，一个 float 4 字节。" },
    { en = "When does a + offset land on a sector boundary again?", zh = "a + offset 什么时候又落在扇区边界上？" },
  },
  claims = {
    { text = "offsets 8, 16 and 24, whose warps start 32, 64 and 96 bytes into a 128-byte line, take 4 sectors a load request, the ideal; offsets 1 to 7 take 5",
      holds = function(ctx)
        for offset = 1, 24 do
          local r = find(ctx.results, {offset = offset})
          local want = offset % 8 == 0 and 4 or 5
          if not r or r.load.sectors_per_request > want + 0.01 or (offset < 8 and r.load.sectors_per_request < 4.9) then
            return false
          end
        end
        return true
      end },
  },
  explain = {
    en = [[8 floats are 32 bytes: at offset 8 each warp's 128 bytes start on a sector boundary again, so 4 sectors; so do 16, 24 and 32. Offsets 1 to 7 (and 9 to 15, ...) always straddle one more sector. The reference notes say a coalesced access must start on a multiple of 128 bytes; offsets 8, 16 and 24 start 32, 64 and 96 bytes into a 128-byte line and still take the ideal 4 sectors. What costs is straddling a 32-byte sector, not a 128-byte line.]],
    zh = [[8 个 float 正好 32 字节：offset 为 8 时每个 warp 的 128 字节又从扇区边界开始，所以是 4 个扇区；16、24、32 也一样。offset 1 到 7（以及 9 到 15……）总是多跨一个扇区。参考笔记说合并访问的起始地址必须是 128 字节的整数倍；offset 为 8、16、24 时起点在 128 字节缓存行里的第 32、64、96 字节处，仍然是理想的 4 个扇区。有代价的是跨过 32 字节的扇区，而不是跨过 128 字节的缓存行。]],
  },
}

step {
  text = {
    en = [[Now change only the offset of this launch so that its loads touch 4 sectors per request, as few as an aligned warp. Run your version, then :answer (with anything) to check it.]],
    zh = [[现在只改这次启动的 offset，让读操作每请求只碰 4 个扇区，和对齐的 warp 一样少。运行你改好的版本，然后输入 :answer（随便写什么）检查。]],
  },
  run = [[launch("offset", {offset = 3, n = 262144})]],
  ask = {
    goal = { en = "offset with 4.00 load sectors per request, n unchanged.", zh = "offset 族，每读请求 4.00 个扇区，n 不变。" },
    solution = [[launch("offset", {offset = 8, n = 262144})]],
    needs = { kernel = "offset", params = { n = 262144 }, load_sectors = 4 },
  },
  hint = {
    { en = "The sweep of the last step shows which offsets give 4.00.", zh = "上一步的扫描显示了哪些 offset 得到 4.00。" },
  },
}

step {
  text = {
    en = [[Does the fifth sector cost DRAM bytes too? Think of whose bytes it holds before you compare the DRAM reads of offset 0 and offset 1 (on a GPU your run measures them; on the sim backend they are the model's estimate for a cold L2).]],
    zh = [[第五个扇区也会多花 DRAM 流量吗？先想一想它装的是谁的字节，再比较 offset 0 和 offset 1 的 DRAM 读取量（在 GPU 上是你的运行实测的；在模拟后端上是冷 L2 的模型估算）。]],
  },
  run = [[c = compare(launch("offset", {offset = 0}), launch("offset", {offset = 1})); c]],
  ask = {
    question = { en = "DRAM bytes read with offset 1 divided by those with offset 0 — about how much (to 2 decimals)?",
                 zh = "offset 1 的 DRAM 读取字节数除以 offset 0 的，大约是多少（保留两位小数）？" },
    answer = function(ctx)   -- the student's offset-1 result against a fresh offset-0 launch of the same size
      local one = ctx.result
      local zero = launch("offset", {offset = 0, n = one.params.n, min_samples = 3})
      return one.dram.read_bytes / zero.dram.read_bytes
    end,
    tolerance = 0.02,
  },
  hint = { { en = "Look at the DRAM line of each result, or at the compare() table.", zh = "看每个结果的 DRAM 行，或 compare() 表。" } },
  claims = {
    { text = "offset 1 reads no more than 1% more DRAM bytes than offset 0 (cold L2)", gpu = true,
      holds = function(ctx)
        local zero = launch("offset", {offset = 0})
        return ctx.result.dram.read_bytes <= 1.01 * zero.dram.read_bytes
      end },
  },
  explain = {
    en = [[About 1.00: misalignment costs L1-to-L2 traffic (25% more sectors), not DRAM bytes, because the extra sector is the next warp's first. The reference notes measured offset 0 reading slightly more than offset 1 on their GPU; here the difference is noise.]],
    zh = [[大约 1.00：未对齐多花的是 L1 到 L2 的流量（多 25% 的扇区），而不是 DRAM 字节，因为多出来的扇区正是下一个 warp 的第一个扇区。参考笔记在他们的 GPU 上测到 offset 0 的 DRAM 读取反而略多于 offset 1；这里的差别只是噪声。]],
  },
}
