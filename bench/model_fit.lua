-- model_fit.lua: the model's time against a GPU's, from the launches
-- bench/model_time.lua measured (issue 29):
--   ./warplab --sim --profile h200 bench/model_fit.lua bench/data/h200-model-time.json [pairs|random|all]
-- For each pair, the GPU's time ratio b/a beside the model's, and both
-- verdicts (slower / same / faster at a 10% margin); for the random
-- configurations, the model's time error, the median over all and each
-- family's. The last lines sum up: verdicts equal, ratios within 25%,
-- median |error|, the worst family's median.
local path, what = arg[1], arg[2] or "all"
local core = debug.getregistry()["warplab.core"]
local file = assert(io.open(path or "", "r"), "usage: model_fit.lua MEASURED.json [pairs|random|all]")
local entries = core.json.decode(file:read("a"))
file:close()

local function modelled(entry)
  local params = {}
  for k, v in pairs(entry.params) do params[k] = v end
  local ok, r = pcall(launch, entry.kernel, params)
  return ok and r.model.time_ms or nil, ok and r.model.limit or tostring(r)
end

local function verdict(ratio)
  return ratio > 1.1 and "slower" or ratio < 1 / 1.1 and "faster" or "same"
end

local function median(list)
  if #list == 0 then return 0 end
  table.sort(list)
  local m = (#list + 1) // 2
  return #list % 2 == 1 and list[m] or (list[m] + list[m + 1]) / 2
end

local summary = {}
if what ~= "random" then
  local by_label, same, close, count = {}, 0, 0, 0
  for _, e in ipairs(entries) do if e.set == "pair" then by_label[e.label] = e end end
  print(string.format("%-40s %8s %8s  %-7s %-7s  %s", "pair (b over a)", "GPU", "model", "GPU", "model", "model's limit for b"))
  for _, e in ipairs(entries) do
    local name = e.set == "pair" and e.label:match("^(.*) a$")
    local b = name and by_label[name .. " b"]
    if b and e.time_ms and b.time_ms then
      local ma = modelled(e)
      local mb, limit = modelled(b)
      if ma and mb then
        local gpu, model = b.time_ms / e.time_ms, mb / ma
        local agree = verdict(gpu) == verdict(model)
        local near = math.abs(model / gpu - 1) <= 0.25
        count = count + 1
        same = same + (agree and 1 or 0)
        close = close + (near and 1 or 0)
        print(string.format("%-40s %8.2f %8.2f  %-7s %-7s%s %s", name, gpu, model, verdict(gpu), verdict(model),
                            agree and (near and " " or "~") or "!", limit))
      end
    end
  end
  summary[#summary + 1] = string.format("pairs: verdict equal in %d of %d, ratio within 25%% in %d of %d", same, count, close, count)
end
if what ~= "pairs" then
  local errors, by_family = {}, {}
  for _, e in ipairs(entries) do
    if e.set == "random" and e.time_ms then
      local m = modelled(e)
      if m then
        local err = m / e.time_ms - 1
        errors[#errors + 1] = math.abs(err)
        by_family[e.kernel] = by_family[e.kernel] or {}
        table.insert(by_family[e.kernel], math.abs(err))
        if what == "random" then
          print(string.format("%-12s %10.4f %10.4f %+7.1f%%  %s", e.kernel, e.time_ms, m, 100 * err, core.json.encode(e.params)))
        end
      end
    end
  end
  local worst, worst_median = "-", 0
  local names = {}
  for name in pairs(by_family) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local m = median(by_family[name])
    print(string.format("random %-12s median |error| %6.1f%% over %d", name, 100 * m, #by_family[name]))
    if m > worst_median then worst, worst_median = name, m end
  end
  summary[#summary + 1] = string.format("random: median |error| %.1f%% over %d; worst family %s at %.1f%%",
                                        100 * median(errors), #errors, worst, 100 * worst_median)
end
for _, line in ipairs(summary) do print(line) end
