-- chart.lua: horizontal bar charts in the terminal, one row per x value and
-- one bar per series, with the axis in units, and marks (a device's peak, a
-- cache size) drawn where they fall. Unicode eighth-blocks on a terminal,
-- ASCII otherwise.
local core = require "warplab.core"
local u = require "warplab.text"
local fmt = u.fmt

local chart = {}

local messages = {
  mark = { en = "%s %s at %s", zh = "%s %s：%s" },
  mark_above = { en = "%s at %s, off the scale (far above these bars)", zh = "%s：%s，远在这些条之上，未按比例画出" },
}
local say = u.messages("chart", messages)

-- A mark (a device's peak) sets a chart's scale only when the data comes
-- within this factor of it; above that it is named beside the chart, not
-- drawn, so that small values are not flattened against the axis.
local MARK_REACH = 3

-- The marks that lie on a chart whose data reaches top, and those above it
-- (plot.lua's SVG charts place their marks the same way).
function chart.marks_on_scale(marks, top)
  local on, above = {}, {}
  for _, m in ipairs(marks or {}) do
    if m.at <= MARK_REACH * top then on[#on + 1] = m else above[#above + 1] = m end
  end
  return on, above
end

local EIGHTHS = { "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█" }

local function glyphs()
  if core.fancy() then
    return { axis = "│", corner = "└", rule = "─", mark = "┆", fractions = EIGHTHS, full = "█" }
  end
  return { axis = "|", corner = "+", rule = "-", mark = ":", fractions = nil, full = "#" }
end

-- A bar of value/scale * width cells, with eighths where the font has them.
local function bar_text(value, scale, width, g)
  local cells = scale > 0 and math.max(0, value) / scale * width or 0
  local whole = math.floor(cells)
  local text = g.full:rep(whole)
  if g.fractions then
    local eighths = math.floor((cells - whole) * 8 + 0.5)
    if eighths >= 8 then text, whole = text .. g.full, whole + 1
    elseif eighths > 0 then text = text .. g.fractions[eighths] end
  elseif cells - whole >= 0.5 then
    text, whole = text .. g.full, whole + 1
  end
  return text, whole + ((g.fractions and cells - whole > 0) and 1 or 0)
end

-- Puts mark characters into a bar line at the columns of the marks.
local function with_marks(text, used, marks, scale, width, g)
  local cells = {}
  for _, c in utf8.codes(text) do cells[#cells + 1] = utf8.char(c) end
  for i = #cells + 1, width do cells[i] = " " end
  for _, m in ipairs(marks) do
    local column = math.floor(m.at / scale * width + 0.5)
    if column >= 1 and column <= width and column > used then cells[column] = g.mark end
  end
  return (table.concat(cells):gsub("%s+$", ""))
end

local right = u.align_right

local function number_text(value, unit)
  if value == nil then return "-" end
  local text = math.abs(value) >= 100 and fmt("%.0f", value) or math.abs(value) >= 10 and fmt("%.1f", value)
               or fmt("%.2f", value)
  return unit and unit ~= "" and text .. " " .. unit or text
end

-- chart.bars{ title=, x_label=, x = {labels}, series = {{name=, values=}}, unit=,
--             marks = {{at=, label=}}, breaks = {{before=row, label=}}, width= } -> text
function chart.bars(spec)
  local g, width = glyphs(), spec.width or 40
  local scale = 0
  for _, s in ipairs(spec.series) do
    for i = 1, #spec.x do scale = math.max(scale, s.values[i] or 0) end
  end
  local on, above = chart.marks_on_scale(spec.marks, scale)   -- marks above are named below the chart
  for _, m in ipairs(on) do scale = math.max(scale, m.at) end
  local label_width = u.display_width(spec.x_label or "")
  for _, x in ipairs(spec.x) do label_width = math.max(label_width, u.display_width(x)) end
  local several = #spec.series > 1
  local name_width = 0
  for _, s in ipairs(spec.series) do name_width = math.max(name_width, u.display_width(s.name or "")) end
  local pad = label_width + (several and name_width + 1 or 0)
  width = math.max(10, math.min(width, core.columns() - pad - 12))   -- the bars and their values within the terminal
  local lines = { spec.title, right(spec.x_label or "", pad) .. " " .. g.axis }
  local breaks = {}
  for _, b in ipairs(spec.breaks or {}) do breaks[b.before] = b.label end
  for i, x in ipairs(spec.x) do
    if breaks[i] then lines[#lines + 1] = fmt("%" .. pad .. "s %s %s", "", g.axis, g.rule:rep(3) .. " " .. breaks[i]) end
    for k, s in ipairs(spec.series) do
      local text, used = bar_text(s.values[i] or 0, scale, width, g)
      local row_label = k == 1 and x or ""
      local name = several and " " .. u.pad(s.name, name_width) or ""
      lines[#lines + 1] = fmt("%s%s %s%s  %s", right(row_label, label_width), name, g.axis,
                              with_marks(text, used, on, scale, width, g),
                              number_text(s.values[i], nil))
    end
  end
  lines[#lines + 1] = fmt("%" .. pad .. "s %s%s", "", g.corner, g.rule:rep(width))
  lines[#lines + 1] = (" "):rep(pad) .. "  0" .. right(number_text(scale, spec.unit), width - 1)
  for _, m in ipairs(on) do
    lines[#lines + 1] = fmt("%" .. pad .. "s  ", "") .. say("mark", g.mark, m.label, number_text(m.at, spec.unit))
  end
  for _, m in ipairs(above) do
    lines[#lines + 1] = fmt("%" .. pad .. "s  ", "") .. say("mark_above", m.label, number_text(m.at, spec.unit))
  end
  return table.concat(lines, "\n")
end

return chart
