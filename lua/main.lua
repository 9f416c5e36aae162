-- main.lua (warplab.main): the module shell/api/session.c requires once
-- every module is in package.preload. It wires the hooks C calls on the
-- core table, each to the module that implements it, in this one place (no
-- module sets a name on core), then makes the students' globals.
local core = require "warplab.core"
local text = require "warplab.text"
local registry = require "warplab.registry"
local device = require "warplab.device"
local values = require "warplab.values"
require "warplab.card"       -- how a result prints (its __tostring)
require "warplab.warp_map"   -- result.map (its __index)
local record = require "warplab.record"
local kernel = require "warplab.kernel"
local labs = require "warplab.labs"
local lab_release = require "warplab.lab_release"
local lab_batch = require "warplab.lab_batch"
local lab_check = require "warplab.lab_check"
local complete = require "warplab.complete"
local grade = require "warplab.grade"

-- What C reads on core, and where:
core.util = text                     -- api.c: util.wrap, for what C prints wrapped
-- shell/repl/: the lab commands (labs.lua's), --lab with --answers (the
-- batch's), --check-lab (the checker's), --release-lab (the release's)
core.labs = setmetatable({ batch = lab_batch.batch, check = lab_check.check, release = lab_release.release },
                         { __index = labs })
core.grade = grade.grade             -- shell/repl/main.c: --grade
core.complete = complete.complete    -- shell/repl/complete.c: Tab
core.families_changed = registry.families_changed  -- api.c: a family joined the registry
core.kernel_resources = kernel.kernel_resources    -- launch.c: a declared kernel's registers
core.not_run = kernel.not_run                      -- launch.c: why a declared kernel cannot run
core.banner = device.banner                        -- repl.c: the first line
core.start_journal = record.start_journal          -- repl.c: the session's journal
core.after_chunk = record.after_chunk              -- repl.c: what a chunk returned
core.command_done = record.command_done            -- repl.c: a colon command and what it printed

-- repl.c: a chunk (or a line a lab offered) is done, with all it printed.
-- Each concern's part, in this order: the kernel{} it declared is no longer
-- the one to show; its entry in record() and the journal is closed; then a
-- waiting prediction is set beside the run it made.
function core.chunk_done(code, printed)
  kernel.chunk_done()
  record.chunk_done(code, printed)
  labs.chunk_done()
end

-- repl.c: the values a chunk typed at the prompt returned: a kernel{}'s
-- line in place of its name, else the values as lua.c prints them.
function core.print_values(...)
  if not kernel.print_values(...) then values.print_values(...) end
end

require "warplab.globals"
