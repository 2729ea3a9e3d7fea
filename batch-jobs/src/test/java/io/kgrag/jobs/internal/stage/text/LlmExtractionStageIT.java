package io.kgrag.jobs.internal.stage.text;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag index --extractor llm} on the executors against a local OpenAI-protocol server: LightRAG
 * records into the graph, every reply kept in {@code llm_cache} under the chunk's item key so a re-run sends
 * nothing, token counts in {@code runs}, and an endpoint that fails marking its chunks failed without losing
 * the run.
 */
class LlmExtractionStageIT {
  private static final String CHOPIN =
      "(\"entity\"<|>\"Frederic Chopin\"<|>\"person\"<|>\"A composer.\")##(\"entity\"<|>\"Warsaw\"<|>\"geo\"<|>\"A city.\")##"
          + "(\"relationship\"<|>\"Frederic Chopin\"<|>\"Warsaw\"<|>\"He grew up there.\"<|>\"grew up in\"<|>9)##"
          + "(\"relationship\"<|>\"Frederic Chopin\"<|>\"\"<|>\"no target\"<|>\"x\"<|>3)<|COMPLETE|>";
  private static final String CURIE =
      "(\"entity\"<|>\"Marie Curie\"<|>\"person\"<|>\"A physicist.\")##(\"entity\"<|>\"Paris\"<|>\"geo\"<|>\"A city.\")##"
          + "(\"relationship\"<|>\"Marie Curie\"<|>\"Paris\"<|>\"She worked there.\"<|>\"worked in\"<|>8)<|COMPLETE|>";

  private FakeOpenAiServer server;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
    var conf = SparkTestSession.get().conf();
    conf.set("spark.kgrag.extract.llm.url", server.baseUrl());
    conf.set("spark.kgrag.extract.llm.model", "fake-extractor");
    conf.set("spark.kgrag.extract.llm.max-retries", "0");
  }

  @AfterEach
  void stop() {
    var conf = SparkTestSession.get().conf();
    for (String k : List.of("url", "model", "max-retries")) {
      conf.unset("spark.kgrag.extract.llm." + k);
    }
    server.close();
  }

  private static Path corpus(Path dir) {
    return TestFiles.lines(dir, "corpus.jsonl",
        List.of("{\"id\": \"c\", \"title\": \"Frederic Chopin\", \"text\": \"Frederic Chopin grew up in Warsaw.\"}",
            "{\"id\": \"m\", \"title\": \"Marie Curie\", \"text\": \"Marie Curie worked in Paris.\"}"));
  }

  private static Cli index(Path in, Path wh, String runId) {
    return Cli.run("index", "--input", in.toString(), "--format", "jsonl", "--extractor", "llm", "--warehouse", wh.toString(),
        "--stages", "ingest", "--run-id", runId);
  }

  private static Map<String, Long> rows(Catalog c, String runId) {
    Row r = c.read(KgTable.RUNS).filter(col("run_id").equalTo(runId)).head();
    return r.getJavaMap(r.fieldIndex("rows"));
  }

  @Test
  void repliesBecomeTheGraphAndAreCachedSoAReRunSendsNothing() {
    server.otherwise(FakeOpenAiServer.CHAT, req -> Response.ok(FakeOpenAiServer.chatJson(req.message("user").contains("Chopin") ? CHOPIN : CURIE, 200, 40)));
    Path dir = SparkTestSession.newDir("llm-extract");
    Path in = corpus(dir);
    Path wh = dir.resolve("wh");
    Cli first = index(in, wh, "x1");
    assertEquals(0, first.code, first.toString());
    Catalog c = new Catalog(SparkTestSession.get(), wh.toString());
    assertEquals(2, server.requests(FakeOpenAiServer.CHAT).size());
    Map<String, Long> r1 = rows(c, "x1");
    assertEquals(2, r1.get("llm_calls"), r1.toString());
    assertEquals(400, r1.get("tokens_in"), r1.toString());
    assertEquals(80, r1.get("tokens_out"), r1.toString());
    assertEquals(2, r1.get("llm_cache_inserted"), r1.toString());
    assertEquals(1, c.read(KgTable.RELATIONS).filter(col("relation").equalTo("grew up in")).count());
    assertEquals(1, c.read(KgTable.CHUNK_EXTRACTIONS).filter(functions.size(col("rejected")).gt(0)).count(), "the record without a target");
    List<Row> cache = c.read(KgTable.LLM_CACHE).select("model", "item_key").collectAsList();
    assertEquals(2, cache.size());
    assertTrue(cache.stream().allMatch(x -> x.getString(0).equals("fake-extractor") && x.getString(1).length() == 64), cache.toString());

    // the same documents again (a rebuild, not --append): every reply comes from llm_cache
    Cli again = index(in, wh, "x2");
    assertEquals(0, again.code, again.toString());
    assertEquals(2, server.requests(FakeOpenAiServer.CHAT).size(), "no request sent");
    Map<String, Long> r2 = rows(c, "x2");
    assertEquals(0, r2.get("llm_calls"), r2.toString());
    assertEquals(2, r2.get("llm_cache_hits"), r2.toString());
    assertEquals(0, r2.get("tokens_in"), r2.toString());
    assertEquals(1, c.read(KgTable.RELATIONS).filter(col("relation").equalTo("grew up in")).count());
  }

  @Test
  void anEndpointThatFailsMarksItsChunksFailedAndCachesNothing() {
    server.otherwise(FakeOpenAiServer.CHAT, req -> Response.error(503, "overloaded"));
    Path dir = SparkTestSession.newDir("llm-extract-down");
    Path wh = dir.resolve("wh");
    Cli r = index(corpus(dir), wh, "down");
    assertEquals(0, r.code, r.toString());
    Catalog c = new Catalog(SparkTestSession.get(), wh.toString());
    List<Row> ex = c.read(KgTable.CHUNK_EXTRACTIONS).select("status", "error").collectAsList();
    assertEquals(2, ex.size());
    assertTrue(ex.stream().allMatch(x -> x.getString(0).equals("failed") && x.getString(1).contains("SERVER_ERROR")), ex.toString());
    assertEquals(2, c.read(KgTable.DOCUMENTS).count());
    assertEquals(0, c.exists(KgTable.LLM_CACHE) ? c.read(KgTable.LLM_CACHE).count() : 0);

    // the endpoint is back: --append extracts the failed documents again instead of skipping them
    server.otherwise(FakeOpenAiServer.CHAT, req -> Response.ok(FakeOpenAiServer.chatJson(req.message("user").contains("Chopin") ? CHOPIN : CURIE, 10, 5)));
    Cli retry =
        Cli.run("index", "--input", dir.resolve("corpus.jsonl").toString(), "--format", "jsonl", "--extractor", "llm", "--warehouse", wh.toString(),
            "--stages", "ingest", "--run-id", "retry", "--append");
    assertEquals(0, retry.code, retry.toString());
    Map<String, Long> rows = rows(c, "retry");
    assertEquals(2, rows.get("documents_retried"), rows.toString());
    assertEquals(0, rows.get("documents_skipped"), rows.toString());
    assertEquals(2, c.read(KgTable.DOCUMENTS).count(), "no document twice");
    assertEquals(2, c.read(KgTable.CHUNK_EXTRACTIONS).filter(col("status").equalTo("ok")).count());
    assertEquals(2, c.read(KgTable.CHUNK_EXTRACTIONS).count(), "the failed rows were replaced");
    assertEquals(2, c.read(KgTable.RELATIONS).count());
  }
}
