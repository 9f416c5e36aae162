#!/bin/sh
# cli.sh — the command line: modes, options and exit statuses.
warplab=${WARPLAB:-./warplab}
count=0 failed=0
check() {   # check NAME EXPECTED-STATUS PATTERN COMMAND... (a PATTERN of !TEXT: the output lacks TEXT)
  name=$1 expected=$2 pattern=$3; shift 3
  output=$("$@" 2>&1); status=$?
  count=$((count + 1))
  case $pattern in
    '!'*) printf '%s' "$output" | grep -q -- "${pattern#!}" && status="$status, and the output has ${pattern#!}" ;;
    *) printf '%s' "$output" | grep -q -- "$pattern" || status="$status, and the output lacks $pattern" ;;
  esac
  if [ "$status" = "$expected" ]; then
    echo "ok $count - $name"
  else
    failed=$((failed + 1))
    echo "not ok $count - $name"
    echo "#   status $status (expected $expected), output:"; printf '%s\n' "$output" | sed 's/^/#   /'
  fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'print("from file", arg[1], arg[2])\n' > "$tmp/script.lua"
printf 'error("boom")\n' > "$tmp/fails.lua"

check "--version names Lua" 0 "warplab 0.1 (Lua 5.4" "$warplab" --version
check "--help shows usage" 0 "usage: warplab" "$warplab" --help
check "--list shows each family with its summary" 0 "strided       out\[i\] = in\[i\*stride\]" "$warplab" --list
check "-e prints the notes' figure" 0 "^5.0$" "$warplab" --sim -e 'r = launch("offset", {offset=1, n=262144}); print(r.load.sectors_per_request)'
check "-e runs in order" 0 "12" "$warplab" --sim -e 'x = 1' -e 'io.write(x, 2, "\n")'
check "a script file gets its arguments" 0 "from file	a	b" "$warplab" --sim "$tmp/script.lua" a b
check "stdin that is not a terminal is a script" 0 "^3$" sh -c "echo 'print(1+2)' | '$warplab' --sim"
check "the shorthand works in -e" 0 "^16.0$" "$warplab" --sim -e 'print(launch("strided", <stride=4, n=1024>).load.sectors_per_request)'
check "a script error exits 1 with its message" 1 "fails.lua:1: boom" "$warplab" --sim "$tmp/fails.lua"
check "an -e error exits 1" 1 "unknown kernel 'nope'" "$warplab" --sim -e 'launch("nope")'
check "a missing script exits 1" 1 "cannot open" "$warplab" --sim "$tmp/missing.lua"
# A Lua keyword as a table key (issue 31, item 12): a second line says how to write it
printf 'kernel { name = "k", buffers = { in = { type = "float" } } }\n' > "$tmp/keyword.lua"
check "a keyword as a table key in a script: a line suggests [\"in\"]" 1 "^'in' is a Lua keyword: as a table key write \[\"in\"\] = " \
  "$warplab" --sim "$tmp/keyword.lua"
check "... in -e code, in Chinese" 1 "^'end' 是 Lua 的关键字：作为表的键要写成 \[\"end\"\]" "$warplab" --sim --lang zh -e 'x = { end = 1 }'
check "... and not for another syntax error near a keyword" 1 "!Lua keyword" "$warplab" --sim -e 'if x == in then end'
printf 'lab { title = { en = "k", zh = "k" } }\nstep { text = { en = "a", zh = "b" }, kernel = { buffers = { in = 1 } } }\n' > "$tmp/keyword_lab.lua"
check "... in a lab file" 1 "^'in' is a Lua keyword" "$warplab" --sim --check-lab "$tmp/keyword_lab.lua"
check "an unknown option exits 2" 2 "unknown option '--bogus'" "$warplab" --bogus
check "-e without code exits 2" 2 "-e expects Lua code" "$warplab" -e
check "--device without a number exits 2" 2 "--device expects a GPU number" "$warplab" --device x
check "--sim forces the model" 0 "^sim$" "$warplab" --sim -e 'print(device().backend)'
check "--device without a value says it got nothing" 2 "--device expects a GPU number, got nothing" "$warplab" --device
check "--name=value works as --name value" 0 "^h200$" "$warplab" --sim --profile=h200 --device=1 -e 'print(config().profile)'
check "a unique prefix of an option's name works" 0 "^a100$" "$warplab" --sim --prof a100 -e 'print(config().profile)'
check "-- ends the options: what follows is the script" 1 "cannot open --sim: No such file or directory" "$warplab" --sim -- --sim
check "- reads the script from standard input, with its arguments" 0 "from stdin	x" sh -c "echo 'print(\"from stdin\", arg[1])' | '$warplab' --sim - x"
check "--help lists the environment" 0 "XDG_DATA_HOME" "$warplab" --help
check "--help says the exit statuses" 0 "Exit status: 0 success, 1 a script error" "$warplab" --help
check "--version has the licence" 0 "License GPLv3" "$warplab" --version
# Glyphs follow the terminal's character set (script gives the command a terminal): LANG=C is ASCII,
# a UTF-8 locale Unicode; NO_COLOR is about colour, and changes no glyph.
if command -v script > /dev/null; then
  card="$warplab --sim -e 'print(launch(\"copy\", {n = 1024}))'"
  check "LANG=C on a terminal: ASCII, ~ and - for the symbols" 0 "sim - modelled" env -u LC_ALL -u LC_CTYPE LANG=C script -qc "$card" /dev/null
  check "... no Unicode left in the card" 0 '!≈' env -u LC_ALL -u LC_CTYPE LANG=C script -qc "$card" /dev/null
  check "a UTF-8 locale on a terminal: the symbols as they are" 0 "sim · modelled" env -u LC_ALL -u LC_CTYPE LANG=C.UTF-8 script -qc "$card" /dev/null
  check "NO_COLOR changes no glyph" 0 "sim · modelled" env -u LC_ALL -u LC_CTYPE LANG=C.UTF-8 NO_COLOR=1 script -qc "$card" /dev/null
  # A little colour where it helps: a verdict of compare(); none under NO_COLOR, TERM=dumb or into a pipe.
  pair="$warplab --sim -e 'print(compare(launch(\"copy\", {n = 1 << 20}), launch(\"copy\", {n = 1 << 22})))'"
  red=$(printf '\033\[31mslower')
  check "compare colours a verdict on a terminal" 0 "$red" env TERM=xterm script -qc "$pair" /dev/null
  check "... not under NO_COLOR" 0 "!$red" env TERM=xterm NO_COLOR=1 script -qc "$pair" /dev/null
  check "... nor TERM=dumb" 0 "!$red" env TERM=dumb script -qc "$pair" /dev/null
  check "... nor into a pipe" 0 "!$red" sh -c "$pair | cat"
fi

# What runs first, as lua.c runs LUA_INIT, then the student's init.lua.
mkdir -p "$tmp/config/warplab"
printf 'function twice(x) return 2 * x end\n' > "$tmp/config/warplab/init.lua"
printf 'from_file = 7\n' > "$tmp/init-file.lua"
check "LUA_INIT runs before the code" 0 "^42$" env LUA_INIT='x_init = 41' "$warplab" --sim -e 'print(x_init + 1)'
check "LUA_INIT=@FILE runs the file" 0 "^7$" env LUA_INIT="@$tmp/init-file.lua" "$warplab" --sim -e 'print(from_file)'
check "LUA_INIT_5_4 comes before LUA_INIT" 0 "^5.4$" env LUA_INIT='which = "plain"' LUA_INIT_5_4='which = "5.4"' "$warplab" --sim -e 'print(which)'
check "\$XDG_CONFIG_HOME/warplab/init.lua runs at the start" 0 "^42$" env XDG_CONFIG_HOME="$tmp/config" "$warplab" --sim -e 'print(twice(21))'
check "--no-init runs neither" 1 "'twice' is not defined" env XDG_CONFIG_HOME="$tmp/config" LUA_INIT='x = 1' "$warplab" --sim --no-init -e 'print(twice(21))'
check "an error in LUA_INIT is reported, and the session goes on" 0 "went on" env LUA_INIT='error("bad init")' "$warplab" --sim -e 'print("went on")'
check "... with its message" 0 "bad init" env LUA_INIT='error("bad init")' "$warplab" --sim -e 'print("went on")'
# Under --lang zh (or a Chinese LANG) the command line speaks Chinese, its usage errors too.
check "--lang zh --help is in Chinese" 0 "^用法：warplab \[选项\]" "$warplab" --lang zh --help
check "... and names every option" 0 "--answers 文件   与 --lab 同用" "$warplab" --lang zh --help
check "an unknown option under --lang zh exits 2 in Chinese" 2 "未知选项 '--bogus'" "$warplab" --lang zh --bogus
check "... even when --lang comes after it" 2 "请试试 'warplab --help'。" "$warplab" --bogus --lang zh
check "LANG=zh_CN.UTF-8 is enough" 2 "--device 需要一个 GPU 编号，实际为 'x'" env LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES= "$warplab" --device x
check "the sim-backend notice in Chinese" 0 "改用访问模型（sim 后端）" "$warplab" --lang zh --device 99 -e 'x = 1'
check "a script's error in Chinese" 1 "第 1 个参数错误（launch）：未知核函数 'nope'" "$warplab" --sim --lang zh -e 'launch("nope")'
check "--list in Chinese" 0 "strided       out\[i\] = in\[i\*stride\]：" "$warplab" --lang zh --list
# Scripts that cannot be read, or are not text, run nothing and exit 1 with the reason.
check "a directory as the script exits 1 and says why" 1 "cannot read $tmp: Is a directory" "$warplab" --sim "$tmp"
printf 'print("unreadable")\n' > "$tmp/unreadable.lua"; chmod 000 "$tmp/unreadable.lua"
if [ -r "$tmp/unreadable.lua" ]; then
  echo "ok $((count += 1)) - # SKIP an unreadable script (the tests run as root, who reads anything)"
else
  check "an unreadable script exits 1 and says why" 1 "cannot open $tmp/unreadable.lua: Permission denied" \
    "$warplab" --sim "$tmp/unreadable.lua"
fi
printf 'print("before")\nprint("at the NUL")\0print("after")\n' > "$tmp/nul.lua"
check "a script with a NUL byte exits 1 naming the line" 1 "nul.lua:2: a NUL byte" "$warplab" --sim "$tmp/nul.lua"
check "... and none of it runs" 1 "!before" "$warplab" --sim "$tmp/nul.lua"
check "a NUL byte in a script on stdin too" 1 "stdin:2: a NUL byte" sh -c "'$warplab' --sim < '$tmp/nul.lua'"
# Output that cannot be written: one line on stderr, exit 1.
check "a full standard output exits 1 and says so" 1 "cannot write to standard output: No space left on device" \
  sh -c "'$warplab' --sim -e 'print(1)' > /dev/full"
check "... --help to a full standard output too" 1 "cannot write to standard output" sh -c "'$warplab' --help > /dev/full"
# --save: only with --lab and --answers; then the batch's progress is the student's.
check "--save alone is a usage error" 2 "--save goes with --lab NAME --answers FILE" "$warplab" --sim --save
check "--save with --lab only is a usage error" 2 "--save goes with --lab" "$warplab" --sim --lab tour --save
answers=${srcdir:-.}/tests/labs/answers/tour.txt
check "--lab --answers --save runs the batch" 0 "" env XDG_DATA_HOME="$tmp/saved" "$warplab" --sim --lab tour --answers "$answers" --save
check "... and keeps its progress" 0 '"tour"' cat "$tmp/saved/warplab/progress.json"
env XDG_DATA_HOME="$tmp/unsaved" "$warplab" --sim --lab tour --answers "$answers" > /dev/null 2>&1
check "without --save the batch keeps none" 0 "none" sh -c "cat '$tmp/unsaved/warplab/progress.json' 2>/dev/null || echo none"
# --gpu-command: the GPU process is started through a launcher, without a shell.
if "$warplab" --version | grep -q CUDA; then
  printf '#!/bin/sh\necho "launched: $*" >&2\nexec "$@"\n' > "$tmp/launcher"
  chmod +x "$tmp/launcher"
  check "--gpu-command starts the GPU process through the launcher" 0 "launched: .*warplab --gpu-server --device 0 --lang en" \
    "$warplab" --gpu-command "$tmp/launcher" -e 'x = 1'
  check "... and the shell runs either way (on the GPU, or the model with the reason)" 0 "^ok$" \
    "$warplab" --gpu-command "$tmp/launcher" -e 'print(device().backend and "ok")'
  check "... as WARPLAB_GPU_COMMAND does" 0 "launched: " env WARPLAB_GPU_COMMAND="$tmp/launcher" "$warplab" -e 'x = 1'
  check "... its words quoted as in a shell, none special" 0 "launched: .*--gpu-server" \
    "$warplab" --gpu-command "'$tmp/launcher'" -e 'x = 1'
  check "a launcher that cannot start is one line, and the model takes over" 0 "cannot start the GPU command 'no-such-launcher'" \
    "$warplab" --gpu-command 'no-such-launcher --x' -e 'x = 1'
  check "an unclosed quote is a usage error" 2 "unclosed quote" "$warplab" --gpu-command "srun 'x" -e 'x = 1'
  check "an empty command is a usage error" 2 "is empty" "$warplab" --gpu-command "  " -e 'x = 1'
  check "--gpu-server with no shell on its input ends" 0 "!gpu-server" sh -c "'$warplab' --gpu-server < /dev/null > /dev/null"
else
  check "--gpu-command without CUDA says it needs it" 2 "needs a warplab built with CUDA" "$warplab" --gpu-command env -e 'x = 1'
fi

lock=${TMPDIR:-/tmp}/warplab-gpu-tests.lock   # GPU work takes turns (see tests/lib/run-lua)
if { if command -v flock >/dev/null; then flock "$lock" "$warplab" -e 'os.exit(device().backend == "gpu" and 0 or 1)'; else "$warplab" -e 'os.exit(device().backend == "gpu" and 0 or 1)'; fi; } 2>/dev/null; then
  echo "ok $((count += 1)) - # SKIP the no-GPU notice (this machine has a GPU)"
else
  check "the no-GPU notice says why and what is used instead" 0 "using the access model" "$warplab" -e 'x = 1'
fi
echo "1..$count"
[ "$failed" = 0 ]
