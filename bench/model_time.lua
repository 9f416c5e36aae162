-- model_time.lua: the launches whose times the model's time is judged by
-- (issue 29), measured on a GPU:
--   ./warplab bench/model_time.lua [OUT.json]
-- Two sets, both with counters: the comparisons the labs and exercises make,
-- as pairs (a, b) at several sizes, and random configurations of every
-- family (a fixed seed). Every launch is written, with its params, measured
-- time and counters, to OUT.json (default $OUT/model_time.json), which
-- bench/model_fit.lua and tests/model/time.lua read back on the model.
local out_path = arg and arg[1] or ((os.getenv("OUT") or "/tmp") .. "/model_time.json")

local M = {}

-- The pairs: a name, launch a, launch b. The verdict is b's time over a's.
M.pairs = {
  { "transpose naive/padded 4096", {"transpose", {variant = "padded"}}, {"transpose", {variant = "naive"}} },
  { "transpose naive/padded 2048", {"transpose", {rows = 2048, cols = 2048, variant = "padded"}}, {"transpose", {rows = 2048, cols = 2048, variant = "naive"}} },
  { "transpose naive/padded 1024", {"transpose", {rows = 1024, cols = 1024, variant = "padded"}}, {"transpose", {rows = 1024, cols = 1024, variant = "naive"}} },
  { "transpose shared/padded 4096", {"transpose", {variant = "padded"}}, {"transpose", {variant = "shared"}} },
  { "transpose shared/padded 2048", {"transpose", {rows = 2048, cols = 2048, variant = "padded"}}, {"transpose", {rows = 2048, cols = 2048, variant = "shared"}} },
  { "transpose naive/shared 4096", {"transpose", {variant = "shared"}}, {"transpose", {variant = "naive"}} },
  { "gather random/sorted", {"gather", {pattern = "sorted"}}, {"gather", {pattern = "random"}} },
  { "gather random/window", {"gather", {pattern = "window"}}, {"gather", {pattern = "random"}} },
  { "gather random/sorted 2^20", {"gather", {n = 1 << 20, pattern = "sorted"}}, {"gather", {n = 1 << 20, pattern = "random"}} },
  { "gather window 4096/32", {"gather", {pattern = "window", window = 32}}, {"gather", {pattern = "window", window = 4096}} },
  { "histogram global/shared", {"histogram", {variant = "shared"}}, {"histogram", {variant = "global"}} },
  { "histogram global/shared 2^20", {"histogram", {n = 1 << 20, variant = "shared"}}, {"histogram", {n = 1 << 20, variant = "global"}} },
  { "histogram skewed/uniform global", {"histogram", {variant = "global"}}, {"histogram", {variant = "global", distribution = "skewed"}} },
  { "histogram skewed/uniform shared", {"histogram", {variant = "shared"}}, {"histogram", {variant = "shared", distribution = "skewed"}} },
  { "histogram global bins 32/1024", {"histogram", {variant = "global", bins = 1024}}, {"histogram", {variant = "global", bins = 32}} },
  { "histogram skewed shared 1024/global", {"histogram", {variant = "shared", block = 1024, distribution = "skewed"}}, {"histogram", {variant = "global", distribution = "skewed"}} },
  { "traverse col/row 4096", {"traverse", {order = "row"}}, {"traverse", {order = "col"}} },
  { "traverse col/row 2048", {"traverse", {rows = 2048, cols = 2048, order = "row"}}, {"traverse", {rows = 2048, cols = 2048, order = "col"}} },
  { "traverse tiled/row 16x16", {"traverse", {order = "row", block = {16, 16}}}, {"traverse", {order = "tiled", block = {16, 16}}} },
  { "traverse col/tiled", {"traverse", {order = "tiled"}}, {"traverse", {order = "col"}} },
  { "spmv scalar/vector", {"spmv", {variant = "vector"}}, {"spmv", {variant = "scalar"}} },
  { "spmv scalar/vector 2^18", {"spmv", {n = 1 << 18, variant = "vector"}}, {"spmv", {n = 1 << 18, variant = "scalar"}} },
  { "spmv scalar/vector nnz 64", {"spmv", {n = 1 << 17, nnz_per_row = 64, variant = "vector"}}, {"spmv", {n = 1 << 17, nnz_per_row = 64, variant = "scalar"}} },
  { "prefetch cp_async/none", {"prefetch", {variant = "none"}}, {"prefetch", {variant = "cp_async"}} },
  { "prefetch register/none", {"prefetch", {variant = "none"}}, {"prefetch", {variant = "register"}} },
  { "broadcast constant/global distinct", {"broadcast", {space = "global", pattern = "distinct"}}, {"broadcast", {space = "constant", pattern = "distinct"}} },
  { "broadcast constant distinct/same", {"broadcast", {space = "constant", pattern = "same"}}, {"broadcast", {space = "constant", pattern = "distinct"}} },
  { "broadcast global distinct/same", {"broadcast", {space = "global", pattern = "same"}}, {"broadcast", {space = "global", pattern = "distinct"}} },
  { "working_set 80/48 MiB", {"working_set", {bytes = 48 << 20}}, {"working_set", {bytes = 80 << 20}} },
  { "working_set 128/32 MiB", {"working_set", {bytes = 32 << 20}}, {"working_set", {bytes = 128 << 20}} },
  { "working_set 32/4 MiB", {"working_set", {bytes = 4 << 20}}, {"working_set", {bytes = 32 << 20}} },
  { "working_set 256/128 MiB", {"working_set", {bytes = 128 << 20}}, {"working_set", {bytes = 256 << 20}} },
  { "matmul naive/tiled 256", {"matmul", {variant = "tiled"}}, {"matmul", {variant = "naive"}} },
  { "matmul naive/tiled 512", {"matmul", {m = 512, n = 512, k = 512, variant = "tiled"}}, {"matmul", {m = 512, n = 512, k = 512, variant = "naive"}} },
  { "matmul naive/tiled 1024", {"matmul", {m = 1024, n = 1024, k = 1024, variant = "tiled"}}, {"matmul", {m = 1024, n = 1024, k = 1024, variant = "naive"}} },
  { "conv2d naive/tiled", {"conv2d", {variant = "tiled"}}, {"conv2d", {variant = "naive"}} },
  { "conv2d naive/tiled 2048 r4", {"conv2d", {width = 2048, height = 2048, radius = 4, variant = "tiled"}}, {"conv2d", {width = 2048, height = 2048, radius = 4, variant = "naive"}} },
  { "reuse global/shared", {"reuse", {variant = "shared"}}, {"reuse", {variant = "global"}} },
  { "reuse global 13/5", {"reuse", {variant = "global", reuse = 5}}, {"reuse", {variant = "global", reuse = 13}} },
  { "copy vec 1/4", {"copy", {vec = 4}}, {"copy", {vec = 1}} },
  { "copy block 32/256", {"copy", {vec = 1, block = 256}}, {"copy", {vec = 1, block = 32}} },
  { "offset 1/0", {"offset", {offset = 0}}, {"offset", {offset = 1}} },
  { "strided 2/1", {"strided", {stride = 1}}, {"strided", {stride = 2}} },
  { "strided 8/1", {"strided", {stride = 1}}, {"strided", {stride = 8}} },
  { "strided 32/8", {"strided", {stride = 8}}, {"strided", {stride = 32}} },
  { "width char/float", {"width", {type = "float"}}, {"width", {type = "char"}} },
  { "width float4/float", {"width", {type = "float"}}, {"width", {type = "float4"}} },
  { "aos_soa aos/soa write", {"aos_soa", {layout = "soa"}}, {"aos_soa", {layout = "aos"}} },
  { "aos_soa aos/soa read", {"aos_soa", {layout = "soa", access = "read"}}, {"aos_soa", {layout = "aos", access = "read"}} },
  { "aos_soa update/write", {"aos_soa", {access = "write"}}, {"aos_soa", {access = "update"}} },
  { "particles aos/soa", {"particles", {layout = "soa"}}, {"particles", {layout = "aos"}} },
  { "stencil1d radius 7/1", {"stencil1d", {radius = 1}}, {"stencil1d", {radius = 7}} },
  { "store_policy partial/full", {"store_policy", {fill = "full"}}, {"store_policy", {fill = "partial"}} },
  { "store_policy cs/default", {"store_policy", {store = "default"}}, {"store_policy", {store = "cs"}} },
  { "bank stride 2/1", {"bank", {stride = 1}}, {"bank", {stride = 2}} },
  { "bank stride 32/1", {"bank", {stride = 1}}, {"bank", {stride = 32}} },
  { "bank bytes 8 stride 2/1", {"bank", {bytes = 8, stride = 1}}, {"bank", {bytes = 8, stride = 2}} },
}

-- Random configurations: every family, a fixed seed; sizes up to what a lab
-- launches, so that time is more than launch overhead.
local caps = { n = {1 << 12, 1 << 24}, rows = {64, 4096}, cols = {64, 4096}, width = {64, 2048}, height = {64, 2048},
               m = {16, 512}, k = {16, 512}, stride = {1, 64}, window = {1, 4096}, bytes = {1 << 16, 1 << 28},
               reuse = {1, 32}, bins = {1, 4096}, nnz_per_row = {1, 64}, radius = {1, 8}, seed = {1, 1} }
local draw = dofile("tests/lib/random_params.lua")
function M.random_params(name)
  local params = draw(name, caps, { spread = true, matmul_n = {16, 512} })
  if name == "spmv" then params.n = math.min(params.n, 1 << 20) end
  return params
end

function M.random_launches(per_family)
  math.randomseed(20261202)
  local list = {}
  for _, family in ipairs(kernels()) do
    local drawn, tries = 0, 0
    while drawn < per_family and tries < 100 do
      tries = tries + 1
      local params = M.random_params(family.name)
      if pcall(can, family.name, params) then
        list[#list + 1] = { family.name, params }
        drawn = drawn + 1
      end
    end
  end
  return list
end

-- Runs when called as a script, not when bench/model_fit.lua loads it.
if not rawget(_G, "M_LOAD_ONLY") then
  local entries = {}
  local function measure(set, label, case)
    local params = {}
    for k, v in pairs(case[2]) do params[k] = v end
    params.counters = true
    params.min_samples = 7
    local ok, r = pcall(launch, case[1], params)
    local entry = { set = set, label = label, kernel = case[1], params = case[2] }
    if ok then
      entry.time_ms, entry.time_iqr, entry.model_time_ms = r.time_ms, r.time_iqr, r.model.time_ms
      entry.correct = r.correct
      entry.counters = {}
      for name, c in pairs(r.counters or {}) do entry.counters[name] = c.value end
    else
      entry.error = tostring(r)
    end
    entries[#entries + 1] = entry
    io.stderr:write(string.format("%-44s %s\n", label, ok and string.format("%.4f ms (model %.4f)", r.time_ms or 0, r.model.time_ms) or entry.error))
  end
  for _, pair in ipairs(M.pairs) do
    measure("pair", pair[1] .. " a", pair[2])
    measure("pair", pair[1] .. " b", pair[3])
  end
  for i, case in ipairs(M.random_launches(5)) do
    measure("random", string.format("random %d %s", i, case[1]), case)
  end
  local file = assert(io.open(out_path, "w"))
  file:write(debug.getregistry()["warplab.core"].json.encode(entries, 1), "\n")
  file:close()
end
return M
