-- Loaded into each wrk run by bench/scale-out.ts: after the run, one line with the number of
-- requests and the latency at every 0.1% quantile (0.1 ... 100, microseconds), so that the runs
-- against several instances can be merged into one distribution (bench/_merged-quantiles.ts).
done = function(summary, latency, requests)
  local q = {}
  for k = 1, 1000 do q[k] = string.format("%d", latency:percentile(k / 10)) end
  io.write(string.format("QUANTILES %d %s\n", summary.requests, table.concat(q, " ")))
end
