-- The example queries of `kgrag sql` in README.md (section "kgrag sql"), as README shows them; '<run id>' is
-- replaced by the test's run. PlainSessionCatalogTest runs each through `kgrag sql --format json` and through a plain
-- Spark session in a new JVM, and expects the same rows. Statements end with ';' at the end of a line.

-- a run's answers with their evidence
SELECT a.qid, a.answer, e.src_label, e.relation, e.dst_label
  FROM kgrag.answers a JOIN kgrag.evidence e USING (run_id, method, dataset, qid) WHERE a.run_id = '<run id>';

-- accuracy per slice of every evaluated run, as JSON lines for a notebook
SELECT run_id, method, dataset, slice, n, hit1 FROM kgrag.metrics ORDER BY run_id, slice;

-- the worst questions of a run: wrong or unanswered, slowest first
SELECT a.qid, q.question, q.answers AS gold, a.answer, a.status, a.latency_ms
  FROM kgrag.answers a JOIN kgrag.questions q USING (dataset, qid)
  WHERE a.run_id = '<run id>' AND NOT array_contains(transform(q.answers, x -> lower(x)), lower(coalesce(a.answer, '')))
  ORDER BY a.latency_ms DESC;

-- the runs log (README, "Incremental re-indexing")
SELECT stage, rows, message FROM kgrag.runs WHERE run_id = '<run id>';

-- kgrag's SQL functions
SELECT kg_normalize('The  Matrix') AS label, kg_entity_id('/m/027rn') AS id, kg_relation_text('directed_by') AS words;
