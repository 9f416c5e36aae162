-- plot.lua: plot(results, {x=, y=, file=, title=}) writes a self-contained
-- SVG chart (axes, ticks, labels, legend, the device's peak and L2 size as
-- marks where they mean something); PNG too, through gnuplot when installed.
local core = require "warplab.core"
local u = require "warplab.text"
local device = require "warplab.device"
local chart = require "warplab.chart"
local export = require "warplab.export"
local sweep = require "warplab.sweep"

local plot = {}
local fmt = u.fmt

local WIDTH, HEIGHT = 760, 460
local LEFT, RIGHT, TOP, BOTTOM = 80, 190, 50, 60
local messages = {
  no_temporary = { en = "plot: cannot make a temporary file: %s", zh = "plot()：无法创建临时文件：%s" },
  cannot_write = { en = "plot: cannot write %s", zh = "plot()：无法写入 %s" },
  exit_status = { en = "exit status %d", zh = "退出状态 %d" },
  gnuplot_failed = { en = "plot: gnuplot could not draw %s (%s)", zh = "plot()：gnuplot 无法画出 %s（%s）" },
  empty = { en = "empty", zh = "空的" },
  no_image = { en = "plot: gnuplot wrote no image for %s (%s)", zh = "plot()：gnuplot 没有为 %s 写出图像（%s）" },
  no_gnuplot = { en = "plot: a PNG needs gnuplot (apt-get install gnuplot-nox); an .svg file needs nothing",
                 zh = "plot()：PNG 需要 gnuplot（apt-get install gnuplot-nox）；.svg 文件什么都不需要" },
  name_the_file = { en = "; to name the file: plot(results, {file = \"%s\"})", zh = "；要指定文件名：plot(results, {file = \"%s\"})" },
  options_expected = { en = "bad argument #2 to 'plot' (table of options expected, got %s%s)",
                       zh = "bad argument #2 to 'plot' (需要选项表，得到 %s%s)" },
  unknown_option = { en = "bad argument #2 to 'plot' (unknown option '%s'; the options are x, y, file and title)",
                     zh = "bad argument #2 to 'plot' (没有选项 '%s'；选项有 x、y、file 和 title)" },
  option_type = { en = "bad argument #2 to 'plot' (%s must be a %s, got %s)", zh = "bad argument #2 to 'plot' (%s 必须是 %s，得到 %s)" },
  results_expected = { en = "bad argument #1 to 'plot' (a list of results expected, such as sweep() returns)",
                       zh = "bad argument #1 to 'plot' (需要结果列表，例如 sweep() 返回的那种)" },
  results_broken = { en = "bad argument #1 to 'plot' (a list of results expected, such as sweep() returns; %s)",
                     zh = "bad argument #1 to 'plot' (需要结果列表，例如 sweep() 返回的那种；%s)" },
  x_needed = { en = "bad argument #2 to 'plot' (x = the parameter for the horizontal axis)",
               zh = "bad argument #2 to 'plot' (x = 横轴的参数)" },
  no_nul = { en = "bad argument #2 to 'plot' (file = a name without NUL bytes)",
             zh = "bad argument #2 to 'plot' (file = 不含 NUL 字节的文件名)" },
  svg_or_png = { en = "bad argument #2 to 'plot' (file must end in .svg or .png)",
                 zh = "bad argument #2 to 'plot' (file 必须以 .svg 或 .png 结尾)" },
  title = { en = "%s: %s by %s%s", zh = "%s：%s随 %s 的变化%s" },
  modelled_for = { en = " (modelled for %s)", zh = "（按 %s 模型估算）" },
  x_bytes = { en = "%s (bytes)", zh = "%s（字节）" },
  y_label = { en = "%s (%s)", zh = "%s（%s）" },
  peak = { en = "peak %.0f GB/s", zh = "峰值带宽 %.0f GB/s" },
  above = { en = "↑ %s, above", zh = "↑ %s，在上方" },
  field_expected = { en = "bad argument #2 to 'plot' (y = a metric (%s) or a numeric field of the results, such as \"load.sectors_per_request\"; got %s)",
                     zh = "bad argument #2 to 'plot' (y = 一个指标（%s）或结果中的数值字段，例如 \"load.sectors_per_request\"；得到 %s)" },
  copy = { en = "copy %.0f GB/s", zh = "复制 %.0f GB/s" },
}
local say = u.messages("plot", messages)

local COLORS = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf" }

local function escape(text)
  return (tostring(text):gsub("[<>&\"]", { ["<"] = "&lt;", [">"] = "&gt;", ["&"] = "&amp;", ['"'] = "&quot;" }))
end

-- 1, 2 or 5 times a power of ten: tick steps people read easily.
local function nice_step(span, ticks)
  local raw = span / ticks
  local power = 10 ^ math.floor(math.log(raw, 10))
  for _, f in ipairs({ 1, 2, 5, 10 }) do
    if raw <= f * power then return f * power end
  end
  return 10 * power
end

local function number_label(v)
  if v == 0 then return "0" end
  if math.abs(v) >= 1e4 or math.abs(v) < 1e-2 then return fmt("%.3g", v) end
  return (fmt("%.6g", v))
end

-- A scale from data values to pixels: linear, or log2 for powers of two spanning a wide range.
local function make_scale(values, from, to, force_zero)
  local lo, hi = math.huge, -math.huge
  for _, v in ipairs(values) do lo, hi = math.min(lo, v), math.max(hi, v) end
  if lo == math.huge then lo, hi = 0, 1 end
  local powers = lo > 0
  for _, v in ipairs(values) do powers = powers and math.type(v) == "integer" and v & (v - 1) == 0 end
  local scale = {}
  if powers and hi / lo >= 8 then
    local a, b = math.log(lo, 2), math.log(hi, 2)
    scale.at = function(v) return from + (math.log(v, 2) - a) / (b - a) * (to - from) end
    scale.ticks = {}
    local step = math.max(1, math.floor((b - a) / 8 + 0.5))
    for e = math.floor(a + 0.5), math.floor(b + 0.5), step do scale.ticks[#scale.ticks + 1] = 2 ^ e end
    scale.log = true
    return scale
  end
  if force_zero then lo = math.min(lo, 0) end
  if hi == lo then hi = lo + 1 end
  local integers = true
  for _, v in ipairs(values) do integers = integers and math.type(v) == "integer" end
  local step = nice_step(hi - lo, 6)
  if integers then step = math.max(1, math.floor(step + 0.5)) end   -- no tick between two integers
  -- a value axis (from zero) ends at a tick; a parameter axis ends where the data does (0 to 32, not to 40)
  if force_zero then lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step end
  scale.at = function(v) return from + (v - lo) / (hi - lo) * (to - from) end
  scale.ticks = {}
  for v = math.ceil(lo / step) * step, hi + step / 1e6, step do scale.ticks[#scale.ticks + 1] = v end
  scale.lo, scale.hi = lo, hi
  return scale
end

-- The series to draw: x and y values per value of the second swept parameter.
local function series_of(results, x, metric)
  local list, by_key = { modelled = false }, {}
  local second = results.swept and results.swept[2]
  for _, r in ipairs(results) do
    local key = second and (second .. "=" .. sweep.value_text(r.params[second], second)) or u.localized(metric, "label")
    if not by_key[key] then
      by_key[key] = { name = key, x = {}, y = {} }
      list[#list + 1] = by_key[key]
    end
    local s, value, modelled = by_key[key], sweep.metric_value(metric, r)
    list.modelled = list.modelled or modelled
    local xv = r.params[x]
    if type(xv) == "table" then xv = xv[1] * xv[2] end
    if value ~= nil and type(xv) == "number" then
      s.x[#s.x + 1], s.y[#s.y + 1] = xv, value
    end
  end
  return list
end

-- The chart's scales and which y marks lie on it, the same for the SVG and the PNG.
local function layout(spec)
  local all_x, all_y, top = {}, { 0 }, 0
  for _, s in ipairs(spec.series) do
    for i = 1, #s.x do all_x[#all_x + 1], all_y[#all_y + 1], top = s.x[i], s.y[i], math.max(top, s.y[i]) end
  end
  local on, above = chart.marks_on_scale(spec.y_marks, top)   -- marks above are named at the top
  for _, m in ipairs(on) do all_y[#all_y + 1] = m.at end
  return make_scale(all_x, LEFT, WIDTH - RIGHT), make_scale(all_y, HEIGHT - BOTTOM, TOP, true), on, above
end

local function svg_document(spec)
  local out = {}
  local function add(...) out[#out + 1] = fmt(...) end
  local xs, ys, on_chart, above_chart = layout(spec)
  add('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">',
      WIDTH, HEIGHT, WIDTH, HEIGHT)
  add('<rect width="100%%" height="100%%" fill="white"/>')
  add('<text class="title" x="%d" y="24" font-size="15" font-weight="bold">%s</text>', LEFT, escape(spec.title))
  add('<g class="axes" stroke="black"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>',
      LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, LEFT, HEIGHT - BOTTOM, LEFT, TOP)
  for _, v in ipairs(xs.ticks) do
    local px = xs.at(v)
    add('<g class="tick"><line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/><text x="%.1f" y="%d" text-anchor="middle">%s</text></g>',
        px, HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 5, px, HEIGHT - BOTTOM + 19,
        escape(spec.x_is_bytes and u.bytes(v) or number_label(v)))
  end
  for _, v in ipairs(ys.ticks) do
    local py = ys.at(v)
    add('<g class="tick"><line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%s</text></g>',
        LEFT, py, WIDTH - RIGHT, py, LEFT - 6, py + 4, escape(number_label(v)))
  end
  add('<text class="axis-label" x="%d" y="%d" text-anchor="middle">%s</text>', (LEFT + WIDTH - RIGHT) // 2,
      HEIGHT - 16, escape(spec.x_label))
  add('<text class="axis-label" transform="translate(18,%d) rotate(-90)" text-anchor="middle">%s</text>',
      (TOP + HEIGHT - BOTTOM) // 2, escape(spec.y_label))
  for _, m in ipairs(on_chart) do
    local py = ys.at(m.at)
    add('<g class="mark"><line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#888" stroke-dasharray="6 4"/><text x="%d" y="%.1f" fill="#555">%s</text></g>',
        LEFT, py, WIDTH - RIGHT, py, WIDTH - RIGHT + 6, py + 4, escape(m.label))
  end
  for k, m in ipairs(above_chart) do   -- far above the data: named, not drawn to scale
    add('<g class="mark above"><text x="%d" y="%d" fill="#555">%s</text></g>', WIDTH - RIGHT + 6, TOP - 14 + 14 * k,
        escape(say("above", m.label)))
  end
  for _, m in ipairs(spec.x_marks) do
    local px = xs.at(m.at)
    if px >= LEFT and px <= WIDTH - RIGHT then
      add('<g class="mark"><line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#888" stroke-dasharray="6 4"/><text x="%.1f" y="%d" fill="#555">%s</text></g>',
          px, TOP, px, HEIGHT - BOTTOM, px + 4, TOP + 12, escape(m.label))
    end
  end
  for k, s in ipairs(spec.series) do
    local color, points = COLORS[(k - 1) % #COLORS + 1], {}
    for i = 1, #s.x do points[i] = fmt("%.1f,%.1f", xs.at(s.x[i]), ys.at(s.y[i])) end
    add('<polyline class="series" fill="none" stroke="%s" stroke-width="2" points="%s"/>', color, table.concat(points, " "))
    for i = 1, #s.x do
      add('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s: %s</title></circle>', xs.at(s.x[i]), ys.at(s.y[i]),
          color, escape(number_label(s.x[i])), escape(number_label(s.y[i])))
    end
    local ly = TOP + 20 * k
    add('<g class="legend"><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/><text x="%d" y="%d">%s</text></g>',
        WIDTH - RIGHT + 10, ly + 30, WIDTH - RIGHT + 30, ly + 30, color, WIDTH - RIGHT + 36, ly + 34, escape(s.name))
  end
  add("</svg>")
  return table.concat(out, "\n") .. "\n"
end

---------------------------------------------------------------------------
-- PNG through gnuplot, with no shell and no user text in its commands
---------------------------------------------------------------------------

-- The script gnuplot runs: the SVG's chart, its axes as the layout made them
-- (a log2 x axis, the y range, the marks on the chart as dashed lines, the
-- ones above it named in the key). What comes from the user (title, labels,
-- series names) and the file names arrive as string variables (gnuplot -c
-- SCRIPT ARG1 ... ARG9), never as command text, so backquotes, system() or
-- '|' in them are only text; the script's own text is numbers of ours. ARG1
-- the data file, ARG2 the PNG to write (a temporary of ours), ARG3 the
-- title, ARG4 and ARG5 the axis labels, ARG6 the number of series, ARG7
-- their names, ARG8 the number of marks (their lines follow the series in
-- the data), ARG9 their names, each name ended by a newline.
local function png_script(xs, ys)
  return fmt([[
set terminal pngcairo noenhanced size %d,%d
set output ARG2
set title ARG3
set xlabel ARG4
set ylabel ARG5
%sset xrange [%.17g:%.17g]
set yrange [%.17g:%.17g]
set key below
name(names, i) = i <= 1 ? names[1:strstrt(names, "\n") - 1] : name(names[strstrt(names, "\n") + 1:*], i - 1)
plot for [i = 1:int(ARG6)] ARG1 index (i - 1) using 1:2 with linespoints lw 2 title name(ARG7, i), \
     for [j = 1:int(ARG8)] ARG1 index (int(ARG6) + j - 1) using 1:2 with lines dt 2 lc rgb "#888888" title name(ARG9, j)
]], WIDTH, HEIGHT, xs.log and "set logscale x 2\n" or "", xs.lo or xs.ticks[1], xs.hi or xs.ticks[#xs.ticks],
     ys.lo, ys.hi)
end

-- Text on one line: control characters (newlines among them) become spaces.
local function one_line(text)
  return (tostring(text):gsub("%c", " "))
end

-- The PNG's title in lines that fit its width (gnuplot centres each one and
-- never wraps: a long title ran off both edges): words kept whole, Chinese
-- broken between characters, each line of one_line's text.
local TITLE_COLUMNS = 70   -- display columns of the title's font across WIDTH
local function title_lines(text)
  return u.wrap(one_line(text), TITLE_COLUMNS, "")
end

-- A new temporary file's name, remembered in list so that it is removed afterwards.
local function temporary(list)
  local ok, name = pcall(os.tmpname)
  if not ok then error(say("no_temporary", tostring(name)), 0) end
  list[#list + 1] = name
  return name
end

-- Writes text to path, or raises one line naming the file and the reason.
local function write_checked(path, text, level)
  local ok, why = core.write_file(path, text)
  if not ok then error(say("cannot_write", why), level) end
end

-- The points of each series, a block per series (gnuplot's "index"), then
-- a block per mark on the chart: a line across the x range at its height.
local function data_text(series, marks, xs)
  local lines = {}
  for _, s in ipairs(series) do
    for i = 1, #s.x do lines[#lines + 1] = fmt("%.17g %.17g", s.x[i], s.y[i]) end
    lines[#lines + 1] = "\n"
  end
  local from, to = xs.lo or xs.ticks[1], xs.hi or xs.ticks[#xs.ticks]
  for _, m in ipairs(marks) do
    lines[#lines + 1] = fmt("%.17g %.17g\n%.17g %.17g", from, m.at, to, m.at)
    lines[#lines + 1] = "\n"
  end
  return table.concat(lines, "\n") .. "\n"
end

-- What went wrong in gnuplot, from what it wrote on stderr: its 'line N: why' if it said one.
local function gnuplot_complaint(text)
  local said
  for line in (text or ""):gmatch("[^\n]+") do
    said = line:match("line %d+: (.+)") or said or (line:match("%S") and line)
  end
  return said and said:gsub("^%s+", ""):gsub("%s+$", "")
end

-- Draws the chart to path through gnuplot; temporary files go into temporaries.
local function draw_png(gnuplot, spec, path, temporaries)
  local script, data, image, complaints = temporary(temporaries), temporary(temporaries), temporary(temporaries),
                                          temporary(temporaries)
  local xs, ys, on_chart, above_chart = layout(spec)
  write_checked(script, png_script(xs, ys), 0)
  write_checked(data, data_text(spec.series, on_chart, xs), 0)
  local names, mark_names = {}, {}
  for k, s in ipairs(spec.series) do names[k] = one_line(s.name) .. "\n" end
  for k, m in ipairs(on_chart) do mark_names[k] = one_line(m.label) .. "\n" end
  local title = spec.title
  for _, m in ipairs(above_chart) do title = title .. "  ·  " .. say("above", m.label) end
  local status, why = core.spawn({ gnuplot, "-c", script, data, image, title_lines(title), one_line(spec.x_label),
                                   one_line(spec.y_label), tostring(#spec.series), table.concat(names),
                                   tostring(#on_chart), table.concat(mark_names) },
                                 { stdin = "/dev/null", stdout = "/dev/null", stderr = complaints })
  if status ~= 0 then
    local reason = why or gnuplot_complaint(core.read_file(complaints)) or say("exit_status", status)
    error(say("gnuplot_failed", path, reason), 0)
  end
  local png, unreadable = core.read_file(image)
  if not png or png == "" then error(say("no_image", path, unreadable or say("empty")), 0) end
  write_checked(path, png, 0)
end

-- Writes a PNG through gnuplot, when it is installed; one error line otherwise.
local function write_png(spec, path)
  local gnuplot = core.find_program("gnuplot")
  if not gnuplot then
    error(say("no_gnuplot"), 3)
  end
  local temporaries = {}
  local ok, problem = pcall(draw_png, gnuplot, spec, path, temporaries)
  for _, name in ipairs(temporaries) do os.remove(name) end
  if not ok then error(problem, 3) end
end

---------------------------------------------------------------------------
-- plot()
---------------------------------------------------------------------------

local option_types = { x = "string", y = "string", file = "string", title = "string" }

-- The options table of plot(), checked: one clear line for each kind of mistake.
local function check_options(options)
  if options == nil then return {} end
  if type(options) ~= "table" then
    local hint = ""
    if type(options) == "string" and #options <= 60 and options:match("^[%w%._/%-]+%.%w+$") then
      hint = say("name_the_file", options)
    end
    error(say("options_expected", type(options), hint), 3)
  end
  for k, v in pairs(options) do
    local want = option_types[k]
    if not want then
      error(say("unknown_option", one_line(k):sub(1, 40)), 3)
    end
    if type(v) ~= want then error(say("option_type", k, want, type(v)), 3) end
  end
  return options
end

-- A numeric field of the results as a metric (y = "load.sectors_per_request",
-- "counters.l2_hit_rate": a counter's value), labelled by its name and its
-- unit; nil when no result has a number there.
local function field_metric(path, results)
  local function walk(r)
    local v = r
    for part in path:gmatch("[^.]+") do
      if type(v) ~= "table" then return nil end
      v = v[part]
    end
    if type(v) == "table" and math.type(v.value) then v = v.value end
    return math.type(v) and v or nil
  end
  local function at(r)   -- a result's fields may raise when absent (a counter this GPU lacks): then none
    local ok, v = pcall(walk, r)
    return ok and v or nil
  end
  local found = false
  for _, r in ipairs(results) do found = found or at(r) ~= nil end
  if not found then return nil end
  return { name = path, label = path, unit = export.unit_of(path:match("[^.]+$")) or "",
           get = function(r) return r.measured and at(r) or nil end, model = at }
end

-- Whether value is a list of results, such as sweep() returns.
local function is_results(value)
  if type(value) ~= "table" or value[1] == nil then return false end
  for _, r in ipairs(value) do
    if getmetatable(r) ~= core.Result then return false end
  end
  return true
end

-- plot(results, {x=, y=, file=, title=}): a chart of metric y against parameter x; returns the file name.
function plot.plot(results, options)
  if not is_results(results) then
    error(say("results_expected"), 2)
  end
  local problem = getmetatable(results) == sweep.Results and sweep.results_problem(results)
  if problem then error(say("results_broken", problem), 2) end
  options = check_options(options)
  local x = options.x or (results.swept and results.swept[1])
  local y = options.y or results.y or "bandwidth"
  local metric = sweep.metrics[y] or field_metric(y, results)
  if not x then error(say("x_needed"), 2) end
  if not metric then error(say("field_expected", sweep.metric_names(), u.quote(y)), 2) end
  local file = options.file or "plot.svg"
  if file:find("%z") then error(say("no_nul"), 2) end
  local kind = file:match("%.(%w+)$")
  if kind ~= "svg" and kind ~= "png" then error(say("svg_or_png"), 2) end
  local d = core.globals.device()
  local series = series_of(results, x, metric)
  local label, unit = u.localized(metric, "label"), u.localized(metric, "unit")
  local spec = {
    title = options.title or say("title", results[1].kernel, label, x,
                                 series.modelled and say("modelled_for", device.device_name(results[1].model.device, true)) or ""),
    x_label = x == "bytes" and say("x_bytes", x) or x,
    y_label = unit ~= "" and say("y_label", label, unit) or label,
    series = series, x_is_bytes = x == "bytes", y_marks = {}, x_marks = {},
  }
  if y == "bandwidth" then
    spec.y_marks[#spec.y_marks + 1] = { at = d.peak_gbs, label = say("peak", d.peak_gbs) }
    if d.copy_gbs then spec.y_marks[#spec.y_marks + 1] = { at = d.copy_gbs, label = say("copy", d.copy_gbs) } end
  end
  if x == "bytes" then spec.x_marks[#spec.x_marks + 1] = { at = d.l2_bytes, label = "L2 " .. u.bytes(d.l2_bytes) } end
  if kind == "png" then
    write_png(spec, file)
  else
    write_checked(file, svg_document(spec), 3)
  end
  return file
end

return plot
