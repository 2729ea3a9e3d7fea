package io.kgrag.jobs.internal.method.srag;

import static io.kgrag.jobs.internal.method.srag.SragQaIT.QUESTIONS;
import static io.kgrag.jobs.internal.method.srag.SragQaIT.catalog;
import static io.kgrag.jobs.internal.method.srag.SragQaIT.dir;
import static io.kgrag.jobs.internal.method.srag.SragQaIT.spark;
import static io.kgrag.jobs.internal.method.srag.SragQaIT.wh;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code kgrag qa --method srag} with an LLM's analysis and SQL, over {@link SragQaIT}'s movie graph. */
class SragLlmIT {
  @BeforeAll
  static void indexTheGraph() {
    SragQaIT.indexTheGraph();
  }

  /**
   * {@code --extractor llm --generator llm} against a fake endpoint: the analysis from the schema prompt's
   * JSON, an SQL that does not analyse repaired once, an SQL that reads another table refused (never run, never
   * repaired), every reply kept in llm_cache.
   */
  @Test
  void theLlmsSqlIsCheckedRepairedOnceOrRefused() {
    String count = "How many films directed by Ann Lee were released after 1990?";
    String rel = "Which films directed by Ann Lee star Eve Hart?";
    try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
      server.otherwise(FakeOpenAiServer.CHAT, req -> {
        String user = req.message("user");
        boolean forCount = user.contains(count);
        if (user.contains("Create a table schema")) {
          return Response.ok(FakeOpenAiServer.chatJson(forCount
              ? "{\"type_word\": \"films\", \"anchor\": \"Ann Lee\", \"relation\": \"directed by\", \"columns\": [\"release year\"], \"operation\": \"aggregation\","
                  + " \"measure\": \"release year\", \"comparison\": \">\", \"number\": 1990}"
              : "{\"type_word\": \"films\", \"anchor\": \"Ann Lee\", \"relation\": \"directed by\", \"columns\": [\"actors\"], \"operation\": \"relationship\","
                  + " \"group\": \"actors\", \"values\": [\"Eve Hart\"]}", 80, 30));
        }
        if (req.json().path("messages").size() > 1) { // the repair: the failed SQL and Spark's error follow the prompt
          return Response.ok(FakeOpenAiServer.chatJson("```sql\nSELECT count(*) AS answer FROM srag_entities WHERE release_year > 1990\n```", 120, 20));
        }
        return Response.ok(FakeOpenAiServer.chatJson(forCount
            ? "SELECT count(*) AS answer FROM srag_entities WHERE year > 1990"
            : "SELECT e.label FROM srag_entities s JOIN kgrag.entities e ON s.entity_id = e.entity_id", 100, 20));
      });
      Path conf = TestFiles.lines(dir, "llm.properties", List.of(
          KgragConf.LLM_URL + " " + server.baseUrl(), KgragConf.LLM_MODEL + " fake-srag", KgragConf.LLM_API_KEY_ENV + " KGRAG_TEST_LLM_API_KEY",
          KgragConf.LLM_MAX_RETRIES + " 1"));
      Path qs = TestFiles.lines(dir, "llm-questions.jsonl", List.of(
          "{\"qid\": \"c\", \"question\": \"" + count + "\", \"answers\": [\"" + QUESTIONS.get("agg")[2] + "\"]}",
          "{\"qid\": \"r\", \"question\": \"" + rel + "\", \"answers\": [\"" + QUESTIONS.get("rel")[2] + "\"]}"));
      Cli qa;
      try {
        qa = Cli.run("qa", "--method", "srag", "--warehouse", wh, "--questions", qs.toString(), "--dataset", "movies-srag-llm", "--run-id", "srag-llm",
            "--extractor", "llm", "--generator", "llm", "--conf-file", conf.toString());
      } finally {
        for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_MAX_RETRIES)) {
          spark.conf().unset(k);
        }
      }
      assertEquals(0, qa.code, qa.toString());
      Map<String, Row> answers = new HashMap<>();
      for (Row r : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("srag-llm")).collectAsList()) {
        answers.put(r.getAs("qid"), r);
      }
      assertEquals("exact", answers.get("c").getAs("status"), answers.get("c").toString());
      assertEquals(QUESTIONS.get("agg")[2], answers.get("c").getAs("answer"));
      assertEquals("error", answers.get("r").getAs("status"));
      assertTrue(((String) answers.get("r").getAs("reason")).contains("refused: reads kgrag.entities; only srag_entities may be read"),
          answers.get("r").toString());
      Map<String, Row> queries = new HashMap<>();
      for (Row r : catalog.read(KgTable.SRAG_QUERIES).filter(col("run_id").equalTo("srag-llm")).collectAsList()) {
        queries.put(r.getAs("qid"), r);
      }
      assertEquals("llm-repaired", queries.get("c").getAs("sql_source"));
      assertTrue(((String) queries.get("c").getAs("sql")).contains("release_year > 1990"));
      assertEquals("llm", queries.get("r").getAs("sql_source"));
      Row run = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("srag-llm").and(col("stage").equalTo("qa"))).head();
      Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
      assertEquals(1L, rows.get("srag.sql_repaired"));
      assertEquals(1L, rows.get("srag.sql_refused"));
      assertEquals(5L, rows.get("llm.calls"), "two analyses, two SQL drafts, one repair");
      assertEquals(5L, catalog.read(KgTable.LLM_CACHE).filter(col("model").equalTo("fake-srag")).count(), "every reply kept, the repair's too");
    }
  }

}
