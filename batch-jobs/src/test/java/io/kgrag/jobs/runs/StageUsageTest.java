package io.kgrag.jobs.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** A stage run through the CLI records its Spark usage in its runs row and progress line. */
class StageUsageTest {

  @Test
  void ingestRecordsCpuShuffleAndInput() {
    Path dir = SparkTestSession.newDir("usage");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      lines.add("/m/e" + i + "\t/rel/r" + (i % 3) + "\t/m/e" + (i + 1));
    }
    Path in = TestFiles.lines(dir, "t.tsv", lines);
    Path wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", in.toString(), "--warehouse", wh.toString(), "--stages", "ingest", "--run-id", "usage-1");
    assertEquals(0, r.code, r.toString());
    Row run = new Catalog(SparkTestSession.get(), wh.toString()).read(KgTable.RUNS).head();
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    assertEquals(200L, rows.get("triples_accepted"), rows.toString());
    assertTrue(rows.get("cpu_ms") > 0, rows.toString());
    assertTrue(rows.get("shuffle_write_bytes") > 0 && rows.get("shuffle_read_bytes") > 0, rows.toString());
    assertTrue(rows.containsKey("input_bytes"), rows.toString());
    String line = run.getString(run.fieldIndex("message"));
    assertTrue(line.matches("ingest     200 lines read.* relations  \\[cpu \\d+\\.\\d s, shuffle .+ w / .+ r, input .+\\]  \\(\\d+\\.\\d s\\)$"), line);
    System.out.println(line + "\n" + rows);
  }
}
