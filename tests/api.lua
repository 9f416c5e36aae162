-- api.lua: the Lua API on the access model: launch results, kernels(),
-- info(), device(), help() and the <...> shorthand.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")

-- The reference notes' experiment: the H200's own counter values.
local r = launch("offset", {offset = 1, n = 262144})
t.is(r.kernel, "offset", "result names its kernel")
t.is(r.backend, "sim", "result says which backend made it")
t.is(r.load.requests, 16384, "offset=1: 16,384 load requests")
t.is(r.load.sectors, 81918, "offset=1: 81,918 load sectors")
t.is(r.load.sectors_per_request, 5.0, "offset=1: 5.00 sectors per request")
t.is(r.store.requests, 8192, "offset=1: 8,192 store requests")
t.is(r.store.sectors, 32768, "offset=1: 32,768 store sectors")
t.is(r.load.ideal, 4.0, "offset=1: ideal 4.00")
t.is(r.load.source, "model", "sim numbers are labelled as the model's")
t.is(r.model.load.sectors, 81918, "result.model repeats the model's counts")
t.is(r.params.offset, 1, "params holds what was asked")
t.is(r.params.block, 256, "params holds the defaults too")
t.is(r.useful_bytes, 3 * 4 * (262144 - 1), "useful bytes: two loads and a store per working thread")
t.is(r.footprint_bytes, 3 * 4 * 262144, "footprint: three float arrays")
t.is(r.time_ms, nil, "sim does not claim a time")
t.is(r.correct, nil, "sim does not claim a correctness check")

for stride, sectors in pairs({[1] = 4, [2] = 8, [4] = 16, [8] = 32, [16] = 32}) do
  t.is(launch("strided", {stride = stride, n = 4194304}).load.sectors_per_request, sectors,
       "strided " .. stride .. ": " .. sectors .. " sectors per request")
end
t.is(launch("copy", {n = 1 << 20}).load.sectors_per_request, 4.0, "copy: 4 sectors per request")
t.is(launch("copy", {n = 1 << 20, vec = 4}).load.sectors_per_request, 16.0, "copy float4: 16")

-- Several launches at once: a list of results, in order.
local many = launch("offset", {{offset = 0, n = 4096}, {offset = 1, n = 4096}, {offset = 8, n = 4096}})
t.is(#many, 3, "launch with a list of params returns a list of results")
t.is(many[2].params.offset, 1, "... in the order given")
t.is(many[2].load.sectors_per_request, launch("offset", {offset = 1, n = 4096}).load.sectors_per_request,
     "... each the same as launched alone")

-- The shorthand means exactly the table form.
local short = load('return launch("strided", <stride=4, n=1024>)')
t.ok(short == nil, "plain load() does not know the shorthand (only warplab's chunks do)")
local long = launch("strided", {stride = 4, n = 1024})
t.is(launch("strided", <stride=4, n=1024>).load.sectors, long.load.sectors, "<stride=4> is {stride=4}")

-- Results print as a block naming the backend and labelling modelled numbers.
local text = tostring(r)
t.ok(text:find("offset  n=262,144 block=256 offset=1", 1, true), "header line lists the params")
t.ok(text:find("5.00 sectors/request", 1, true), "loads line shows sectors per request")
t.ok(text:find("modelled", 1, true), "the block says the numbers are modelled")

-- kernels(), info(), device(), help()
local names = {}
for _, k in ipairs(kernels()) do names[#names + 1] = k.name end
t.is(table.concat(names, ",", 1, 3), "copy,offset,strided", "kernels() lists the registry in order")
t.ok(tostring(kernels()):find("strided", 1, true), "kernels() prints a listing")
local i = info("strided")
t.is(i.params[3].name, "stride", "info lists params in order")
t.is(i.params[3].default, 1, "info gives defaults")
t.is(i.params[2].allowed, "a multiple of 32 from 32 to 1024", "info says what is allowed")
t.ok(i.source:find("__global__", 1, true), "info shows the CUDA source")
t.ok(i.teaches ~= nil and #i.teaches > 10, "info says what the family teaches")
t.ok(tostring(i):find("kernel source", 1, true), "info prints itself")
local d = device()
t.is(d.backend, "sim", "device() names the backend")
t.ok(d.l2_bytes > 0 and d.sm_count > 0 and d.peak_gbs > 0, "device() has sizes and a peak")
t.ok(tostring(d):find("peak", 1, true), "device() prints itself")
t.ok(pcall(help), "help() prints an overview")
t.ok(pcall(help, "launch"), "help('launch') prints a topic")

t.done()
