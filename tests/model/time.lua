-- model_time.lua: the model's time against the H200's, from the launches
-- bench/model_time.lua measured there (bench/data/h200-model-time.json,
-- 2026-12-02). Each pair the labs compare must get the GPU's verdict
-- (slower / same / faster at a 10% margin); a pair the model still gets
-- wrong is a TODO line, so that it shows as XFAIL until the model is fixed
-- (and as XPASS after). Floors on the totals keep the model from getting
-- worse; the random configurations of every family hold the median error;
-- the instructions the model charges are held to the H200's counts; the
-- terms the card names are checked by launches that each term must limit,
-- in both languages.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local srcdir = os.getenv("srcdir") or "."
config{profile = "h200"}

local file = assert(io.open(srcdir .. "/bench/data/h200-model-time.json"))
local entries = require("warplab.json").decode(file:read("a"))
file:close()

-- Pairs the model does not get right yet, with why (none since 2026-12-07).
local known = {}
-- What the model reached when these were measured: it may only do better.
local PAIRS_AGREED_FLOOR, PAIRS_NEAR_FLOOR = 57, 52
-- The random configurations: issue 29 asks a median |error| of 10% at most, and no family's beyond 2x.
local RANDOM_MEDIAN_MOST, FAMILY_MEDIAN_MOST = 0.10, 0.5

local models = {}   -- by label: each launch is modelled once
local function modelled(entry)
  if not models[entry.label] then
    local params = {}
    for k, v in pairs(entry.params) do params[k] = v end
    models[entry.label] = launch(entry.kernel, params).model
  end
  return models[entry.label]
end

local function verdict(ratio)
  return ratio > 1.1 and "slower" or ratio < 1 / 1.1 and "faster" or "same"
end

local by_label = {}
for _, e in ipairs(entries) do by_label[e.label] = e end
local pairs_seen, agreed, near = 0, 0, 0
for _, e in ipairs(entries) do
  local name = e.set == "pair" and e.label:match("^(.*) a$")
  local b = name and by_label[name .. " b"]
  if b then
    local gpu = b.time_ms / e.time_ms
    local ma, mb = modelled(e), modelled(b)
    local model = mb.time_ms / ma.time_ms
    local label = string.format("%s: H200 %.2f (%s), model %.2f (%s), limited by %s", name, gpu, verdict(gpu), model,
                                verdict(model), mb.limit)
    pairs_seen = pairs_seen + 1
    local is_near = math.abs(model / gpu - 1) <= 0.25
    if verdict(gpu) == verdict(model) then agreed = agreed + 1 end
    if is_near then near = near + 1 end
    if known[name] then
      t.todo(verdict(gpu) == verdict(model), label, known[name])
    else
      t.ok(verdict(gpu) == verdict(model), label)
    end
  end
end
t.ok(pairs_seen >= 40, string.format("at least 40 pairs measured (%d)", pairs_seen))
t.ok(agreed >= PAIRS_AGREED_FLOOR, string.format("verdicts equal in %d of %d pairs (floor %d)", agreed, pairs_seen, PAIRS_AGREED_FLOOR))
t.ok(near >= PAIRS_NEAR_FLOOR, string.format("ratios within 25%% in %d of %d pairs (floor %d)", near, pairs_seen, PAIRS_NEAR_FLOOR))

local function median(list)
  table.sort(list)
  local m = (#list + 1) // 2
  return #list % 2 == 1 and list[m] or (list[m] + list[m + 1]) / 2
end
local errors, by_family = {}, {}
for _, e in ipairs(entries) do
  if e.set == "random" then
    local err = math.abs(modelled(e).time_ms / e.time_ms - 1)
    errors[#errors + 1] = err
    by_family[e.kernel] = by_family[e.kernel] or {}
    table.insert(by_family[e.kernel], err)
  end
end
t.ok(#errors >= 90 and median(errors) <= RANDOM_MEDIAN_MOST,
     string.format("random configurations: median |error| %.1f%% over %d (at most %.0f%%)", 100 * median(errors), #errors,
                   100 * RANDOM_MEDIAN_MOST))
for name, list in pairs(by_family) do
  t.ok(median(list) <= FAMILY_MEDIAN_MOST, string.format("  %s: median |error| %.1f%%", name, 100 * median(list)))
end

-- The instructions the model charges (each family's warp cost) against the
-- H200's smsp__inst_executed: within 10% for nine launches in ten, and
-- within 30% for every one (bank's loop, which its cost does not follow, is the worst).
local within, counted, worst, worst_label = 0, 0, 0, ""
for _, e in ipairs(entries) do
  local measured = e.counters and e.counters.instructions
  if measured and measured > 0 then
    local err = math.abs(modelled(e).instructions / measured - 1)
    counted = counted + 1
    within = within + (err <= 0.10 and 1 or 0)
    if err > worst then worst, worst_label = err, e.label end
  end
end
t.ok(counted >= 200 and within >= 0.9 * counted,
     string.format("instructions within 10%% of the H200's in %d of %d launches", within, counted))
t.ok(worst <= 0.30, string.format("and within 30%% in every one (worst %.1f%%, %s)", 100 * worst, worst_label))

-- What L1 passes on to L2 (model.load.l2_sectors, an estimate) against the
-- H200's lts__t_sectors_srcunit_tex_op_read: within 10% for most launches,
-- and for every launch of the families whose blocks do not share what L1
-- keeps (broadcast's table and matmul's matrices are read by every block,
-- which L1 keeps across blocks and the model does not; cg loads the H200
-- merges in part; spmv's x is random, working_set spills).
local unmodelled = { broadcast = true, matmul = true, spmv = true, working_set = true }
local l2_within, l2_counted, l2_strays = 0, 0, {}
for _, e in ipairs(entries) do
  local measured = e.counters and e.counters.l2_read_sectors
  if measured and measured > 1000 and e.counters.load_sectors > 0 then
    local err = math.abs(modelled(e).load.l2_sectors / measured - 1)
    l2_counted = l2_counted + 1
    l2_within = l2_within + (err <= 0.10 and 1 or 0)
    if err > 0.10 and not unmodelled[e.kernel] and e.params.load ~= "cg" then l2_strays[#l2_strays + 1] = e.label end
  end
end
t.ok(l2_counted >= 150 and l2_within >= 0.8 * l2_counted,
     string.format("L1's misses within 10%% of the H200's L2 read sectors in %d of %d launches", l2_within, l2_counted))
t.ok(#l2_strays == 0, "and in every launch of the other families: " .. (table.concat(l2_strays, ", ") ~= "" and
     table.concat(l2_strays, ", ") or "none beyond"))

-- Each term limits the launch that is made of it, and the card names it in both languages.
local limits = {
  { "copy", {vec = 4}, "dram" },
  { "copy", {vec = 1, block = 32}, "blocks" },
  { "transpose", {variant = "naive"}, "l2_stores" },
  { "broadcast", {space = "constant", pattern = "distinct"}, "constant" },
  { "bank", {stride = 32}, "shared" },
  { "histogram", {variant = "global", n = 1 << 20}, "atomics" },
  { "traverse", {order = "row", block = {16, 16}}, "latency" },
  { "reuse", {}, "issue" },
  { "gather", {n = 1 << 20, pattern = "random"}, "l2_loads" },
  { "stencil1d", {radius = 7}, "l1_lines" },
}
for _, case in ipairs(limits) do
  local m = launch(case[1], case[2]).model
  t.is(m.limit_key, case[3], string.format("%s %s: limited by %s", case[1], require("warplab.json").encode(case[2]), m.limit))
  t.ok(m.terms[case[3]] > 0 and m.terms[case[3]] <= m.time_ms, "  its term is the time less the launch's fixed cost")
end
core.lang("zh")
local zh = launch("transpose", {})
core.capture(true)
print(zh)
local card = core.capture(false)
t.ok(card:find("瓶颈：" .. zh.model.limit_zh, 1, true) ~= nil and zh.model.limit_zh:find("L2 写入"),
     "the card names the limit in Chinese: " .. zh.model.limit_zh)
core.lang("en")
t.done()
