-- A plain lab, copied by tests/labs/sandbox.sh to a file whose name holds terminal controls.
lab { title = { en = "plain", zh = "普通" } }
step { text = { en = "x", zh = "x" } }
