-- dram_reuse.lua: the DRAM estimate models the L2's size (kernels/model/dram.c):
-- data read again comes from L2 while the launch's data fits in the
-- profile's L2 and from DRAM again when it does not. Runs on the sim backend.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local MiB = 1 << 20

local function dram(kernel, params, profile)
  params.profile = profile or "h200"
  return launch(kernel, params).model.dram
end

local function near(got, expected, share)
  return math.abs(got - expected) <= share * expected
end

-- working_set: thread i loads elements (i + j*n) % elements, j = 0..7, so
-- a launch makes 128*n bytes of loads, of which the distinct (j*n) % elements
-- phases are passes over the buffer (the rest repeat a load of the same warp).
local function working_set(mib, n, profile)
  local bytes, elements, phases, seen = mib * MiB, mib * MiB // 16, 0, {}
  for j = 0, 7 do
    local phase = j * n % elements
    if not seen[phase] then seen[phase], phases = true, phases + 1 end
  end
  local d = dram("working_set", {n = n, bytes = bytes}, profile)
  d.again = phases / 8 * 128 * n - bytes   -- what every pass after the first would read again without an L2
  return d
end

local n = 1 << 23
for _, mib in ipairs({8, 32}) do
  local d = working_set(mib, n)
  t.ok(near(d.read_bytes, mib * MiB, 0.02) and d.reread_bytes == 0,
       string.format("h200, working_set of %d MiB: read once, %d bytes (again %d)", mib, d.read_bytes, d.reread_bytes))
end
-- Past the 33 MiB of the 60 MiB L2 that the H200's counters show a launch
-- keeps (kernels/model/dram.c) each fill pushes out a random block: a pass finds a
-- block with chance h = exp(-(1 - h) * bytes / usable), about 0.43 at 48 MiB,
-- 0.13 at 80 MiB and 0.02 at 128 MiB, so about 57%, 87% and 98% of the passes
-- after the first are read from DRAM again (n = 3*2^21 at 128 MiB: with
-- n = 2^23 = its elements, every thread loads one element 8 times, one pass).
for _, case in ipairs({{48, n, 0.45, 0.75}, {80, n, 0.8, 0.95}, {128, 3 << 21, 0.92, 1.0}}) do
  local d = working_set(case[1], case[2])
  local share = d.reread_bytes / d.again
  t.ok(share >= case[3] and share <= case[4],
       string.format("h200, working_set of %d MiB: %.2f of the passes after the first from DRAM again (%d of %d bytes)",
                     case[1], share, d.reread_bytes, math.floor(d.again)))
end

-- The T4's 4 MiB L2 (2.2 MiB usable) moves the cliff below 4 MiB (a smaller n: less output held in L2).
local small = 1 << 21
local t4_fits, t4_spills, h200_fits = working_set(1, small, "t4"), working_set(4, small, "t4"), working_set(4, small)
t.ok(near(t4_fits.read_bytes, 1 * MiB, 0.02) and t4_fits.reread_bytes == 0,
     string.format("t4, working_set of 1 MiB: read once, %d bytes", t4_fits.read_bytes))
t.ok(t4_spills.reread_bytes >= 0.25 * t4_spills.again and h200_fits.reread_bytes == 0,
     string.format("t4, working_set of 4 MiB: %.2f of the passes after the first again (h200: none)",
                   t4_spills.reread_bytes / t4_spills.again))

-- gather: random reads over in[] (48 MiB) among 96 MiB of idx[] and out[]
-- streaming through: several times the first touches; sorted and window
-- read each block of in[] and idx[] once.
local random = dram("gather", {})
local first_touch = random.read_bytes - random.reread_bytes
t.ok(random.read_bytes >= 2.5 * first_touch,
     string.format("gather random: %d bytes read, %.1f times its first touches", random.read_bytes, random.read_bytes / first_touch))
local H200_GATHER_RANDOM = 451667968   -- dram_read_bytes, bench/data/h200-model-time.json (2026-12-02)
t.ok(near(random.read_bytes, H200_GATHER_RANDOM, 0.1),
     string.format("  within 10%% of the H200's %d (%+.1f%%)", H200_GATHER_RANDOM, 100 * (random.read_bytes / H200_GATHER_RANDOM - 1)))
for _, pattern in ipairs({"sorted", "window"}) do
  local d = dram("gather", {pattern = pattern})
  t.ok(d.reread_bytes == 0 and near(d.read_bytes, first_touch, 0.02),
       string.format("gather %s: %d bytes read, none again", pattern, d.read_bytes))
end

-- Streaming families read no block twice: their counts are those of the
-- once-each rule (before the L2 was modelled), whatever the L2.
local streaming = {   -- read_bytes, write_bytes at the defaults, counted before the L2 was modelled
  copy = {268435456, 268435456}, offset = {536870912, 268435456}, strided = {67108864, 67108864},
}
for kernel, counts in pairs(streaming) do
  local h200, t4 = dram(kernel, {}), dram(kernel, {}, "t4")
  t.ok(h200.read_bytes == counts[1] and h200.write_bytes == counts[2] and h200.reread_bytes == 0 and
       t4.read_bytes == counts[1] and t4.reread_bytes == 0,
       string.format("%s at its defaults: %d read, %d written, as before (t4: %d)", kernel, h200.read_bytes, h200.write_bytes,
                     t4.read_bytes))
end

-- One model thread and two count the same: the L2 sees the warps in warp order.
local code = [[for _, c in ipairs({{"working_set", {bytes = 80 << 20}}, {"gather", {}}, {"working_set", {bytes = 4 << 20, profile = "t4"}},
  {"histogram", {}}, {"transpose", {}}}) do
  local d = launch(c[1], c[2]).model.dram
  print(c[1], d.read_bytes, d.reread_bytes, d.write_bytes) end]]
local function counts_with(threads)
  local pipe = io.popen(string.format("WARPLAB_MODEL_THREADS=%d '%s' --sim --profile h200 -e '%s' 2>&1", threads,
                                      os.getenv("WARPLAB") or "./warplab", code))
  local text = pipe:read("a")
  pipe:close()
  return text
end
local one, two = counts_with(1), counts_with(2)
t.ok(one == two and select(2, one:gsub("\n", "")) == 5, "one model thread and two count the same")
if one ~= two then print("# one thread:\n# " .. one:gsub("\n", "\n# ") .. "\n# two:\n# " .. two:gsub("\n", "\n# ")) end
t.done()
