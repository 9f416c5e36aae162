-- prelude.lua (warplab.prelude): what was one module of text, result
-- cards, show(), device(), kernels(), info() and help(), now cut by concern
-- into the modules below. It gives the names it gave, each from the module
-- that implements it, to the modules that still take them from here
-- (labs.lua, until its own cut); new code requires those modules instead.
local text = require "warplab.text"
local registry = require "warplab.registry"
local result = require "warplab.result"
local files = require "warplab.files"
local device = require "warplab.device"
local families = require "warplab.families"
local warp_map = require "warplab.warp_map"
local help = require "warplab.help"
local values = require "warplab.values"
local chart = require "warplab.chart"

-- The names prelude.lua gave, each from its module (all but say: its messages went with their concerns).
return {
  message_tables = text.message_tables, families_changed = registry.families_changed,
  help_topics = help.help_topics, print_values = values.print_values, banner = device.banner,
  show = warp_map.show, kernels = families.kernels, info = families.info, help = help.help,
  write_or_raise = files.write_or_raise, make_folder_or_raise = files.make_folder_or_raise,
  fmt = text.fmt, commas = text.commas, bytes = text.bytes, percent = text.percent, bar = text.bar,
  value_text = registry.value_text, params_text = registry.params_text, families = registry.families,
  family_by_name = registry.family_by_name, localized = text.localized, value_line = values.value_line,
  utc_now = files.utc_now, marks_on_scale = chart.marks_on_scale,
  quote = text.quote, result_problem = result.result_problem, check_result = result.check_result,
  guarded = result.guarded, copy_table = files.copy_table, message = text.message, messages = text.messages,
  text_in = text.text_in, wide = text.wide, display_width = text.display_width, pad = text.pad,
  align_right = text.align_right, source_lines = text.source_lines, fit = text.fit, paint = text.paint,
  wrap = text.wrap, text_lines = text.text_lines, plural = text.plural, limit_text = text.limit_text,
  device_name = device.device_name,
}
