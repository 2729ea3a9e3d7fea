package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.llm.FakeOpenAiServer.RecordedRequest;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Supporting passages over a graph built from text: {@code kgrag qa} fills {@code retrieved_passages} for every
 * question, {@code kgrag eval} scores passage recall against the question file's supporting_facts titles and checks the
 * chunks exist. A small corpus read by the test-scope {@code pattern} extractor: one document per person (born in a
 * city) and per city (capital of a country), plus documents that mention nobody asked about.
 */
class TextPassagesIT {
  private static final String[] PEOPLE = {"Marie Curie", "Victor Hugo", "Fernando Pessoa", "Gustav Mahler"};
  private static final String[] CITIES = {"Warsaw", "Paris", "Lisbon", "Vienna"};
  private static final String[] COUNTRIES = {"Poland", "France", "Portugal", "Austria"};

  private static Path dir;
  private static Path qs;
  private static Path wh;
  private static Cli eval;

  @BeforeAll
  static void indexAnswerAndEvaluate() {
    dir = SparkTestSession.newDir("text-passages");
    List<String> corpus = new ArrayList<>();
    List<String> questions = new ArrayList<>();
    for (int i = 0; i < PEOPLE.length; i++) {
      corpus.add("{\"title\": \"" + PEOPLE[i] + "\", \"text\": \"" + PEOPLE[i] + " was born in " + CITIES[i] + ".\"}");
      corpus.add("{\"title\": \"" + CITIES[i] + "\", \"text\": \"" + CITIES[i] + " is the capital of " + COUNTRIES[i] + ".\"}");
      corpus.add("{\"title\": \"Filler " + i + "\", \"text\": \"Lake Number" + i + " is the home of Fish Number" + i + ".\"}");
      // two hops: the person's passage and the city's passage support the answer
      questions.add("{\"id\": \"q" + i + "\", \"question\": \"In which country was " + PEOPLE[i] + " born?\", \"answer\": \"" + COUNTRIES[i]
          + "\", \"supporting_facts\": [[\"" + PEOPLE[i] + "\", 0], [\"" + CITIES[i] + "\", 0]]}");
    }
    Path in = TestFiles.lines(dir, "corpus.jsonl", corpus);
    qs = TestFiles.lines(dir, "questions.jsonl", questions);
    wh = dir.resolve("wh");
    Cli index = Cli.run("index", "--input", in.toString(), "--format", "jsonl", "--extractor", "pattern", "--warehouse", wh.toString(), "--stages", "ingest,embed");
    assertEquals(0, index.code, index.toString());
    Cli qa = Cli.run("qa", "--method", "qafd", "--warehouse", wh.toString(), "--questions", qs.toString(), "--dataset", "people", "--run-id", "p1");
    assertEquals(0, qa.code, qa.toString());
    Cli dense = Cli.run("qa", "--method", "dense", "--warehouse", wh.toString(), "--questions", qs.toString(), "--dataset", "people", "--run-id", "p1");
    assertEquals(0, dense.code, dense.toString());
    eval = Cli.run("eval", "--warehouse", wh.toString(), "--run-id", "p1");
    assertEquals(0, eval.code, eval.toString());
  }

  private static Catalog catalog() {
    return new Catalog(SparkTestSession.get(), wh.toString());
  }

  @Test
  void everyQuestionGetsRankedChunksOfTheCorpusWithWhatLedToThem() {
    Catalog c = catalog();
    List<Row> rows =
        c.read(KgTable.RETRIEVED_PASSAGES).filter(col("run_id").equalTo("p1"))
            .join(c.read(KgTable.DOCUMENTS).select("doc_id", "title"), "doc_id")
            .filter(col("method").equalTo("qafd"))
            .select("qid", "rank", "title", "score", "via.entities", "via.edges", "method", "via.dense").orderBy("qid", "rank").collectAsList();
    Map<String, List<String>> titles = new TreeMap<>();
    for (Row r : rows) {
      titles.computeIfAbsent(r.getString(0), k -> new ArrayList<>()).add(r.getString(2));
      assertEquals(titles.get(r.getString(0)).size(), r.getInt(1), "ranks are 1, 2, ... per question: " + rows);
      assertEquals("qafd", r.getString(6));
      assertTrue(!r.getList(4).isEmpty() || !r.getList(5).isEmpty() || !r.isNullAt(7), "every passage says what led to it: " + r);
    }
    assertEquals(PEOPLE.length, titles.size(), titles.toString());
    for (int i = 0; i < PEOPLE.length; i++) {
      List<String> t = titles.get("q" + i);
      assertTrue(t.indexOf(PEOPLE[i]) >= 0 && t.indexOf(PEOPLE[i]) < 2, "the question's own entity's passage, first or second: " + titles);
      for (int f = 0; f < PEOPLE.length; f++) {
        int filler = t.indexOf("Filler " + f);
        assertTrue(filler < 0 || filler > t.indexOf(PEOPLE[i]), "a passage only the dense seeds reach ranks below the linked entity's: " + titles);
      }
    }
  }

  @Test
  void denseRanksTheChunksNearestTheQuestion() {
    Catalog c = catalog();
    assertEquals(c.read(KgTable.CHUNKS).count(), c.read(KgTable.CHUNK_EMBEDDINGS).count(), "the embed stage embedded every chunk");
    for (int i = 0; i < PEOPLE.length; i++) {
      List<Row> top =
          c.read(KgTable.RETRIEVED_PASSAGES).filter(col("run_id").equalTo("p1").and(col("method").equalTo("dense")).and(col("qid").equalTo("q" + i)))
              .join(c.read(KgTable.DOCUMENTS).select("doc_id", "title"), "doc_id").orderBy("rank").select("title", "score").collectAsList();
      assertEquals(10, top.size(), "the default limit: " + top);
      String person = PEOPLE[i];
      assertTrue(top.subList(0, 3).stream().anyMatch(r -> r.getString(0).equals(person)), "the person's own passage is near the top: " + top);
      assertTrue(top.get(0).getDouble(1) >= top.get(9).getDouble(1), top.toString());
      assertEquals(top.get(0).getDouble(1), c.read(KgTable.RETRIEVED_PASSAGES)
          .filter(col("run_id").equalTo("p1").and(col("method").equalTo("dense")).and(col("qid").equalTo("q" + i)).and(col("rank").equalTo(1)))
          .select("via.dense").head().getDouble(0), 1e-12, "the dense method's via is its cosine");
    }
    Row a = c.read(KgTable.ANSWERS).filter(col("run_id").equalTo("p1").and(col("method").equalTo("dense"))).select("status", "reason").head();
    assertEquals("unable", a.getString(0));
  }

  @Test
  void evalScoresPassageRecallAndChecksTheChunks() {
    assertTrue(eval.out.contains("R@5 %"), eval.out);
    assertTrue(eval.out.contains("passages: ") && eval.out.contains("not in kgrag.chunks: 0"), eval.out);
    Row m =
        catalog().read(KgTable.METRICS).filter(col("run_id").equalTo("p1").and(col("slice").equalTo("all")).and(col("method").equalTo("qafd")))
            .select("passage_n", "passage_r2", "passage_r5", "passage_r10").head();
    assertEquals(PEOPLE.length, m.getLong(0));
    assertNotNull(m.get(2));
    // the person's passage is always found; the city's passage is one hop away
    assertTrue(m.getDouble(2) >= 0.5 && m.getDouble(2) <= 1.0, m.toString());
    assertTrue(m.getDouble(3) >= m.getDouble(2) && m.getDouble(2) >= m.getDouble(1), m.toString());
  }

  /** The fake model's replies, by question: one of each kind the reader tells apart. */
  private static Response read(RecordedRequest req) {
    String user = req.json().get("messages").get(1).get("content").asText();
    if (user.contains("Question: In which country was " + PEOPLE[0])) {
      return Response.ok(FakeOpenAiServer.chatJson(COUNTRIES[0], 120, 3)); // the answer, in the city's passage or a candidate
    }
    if (user.contains("Question: In which country was " + PEOPLE[1])) {
      return Response.ok(FakeOpenAiServer.chatJson("Atlantis", 120, 3)); // in no passage: not accepted
    }
    if (user.contains("Question: In which country was " + PEOPLE[2])) {
      return Response.ok(FakeOpenAiServer.chatJson("Unable to determine.", 120, 5));
    }
    return Response.ok(FakeOpenAiServer.chatJson("Answer: born in " + CITIES[3] + ".", 120, 6)); // a span of a passage
  }

  @Test
  void theLlmGeneratorReadsTheAnswerFromTheTopPassagesWithTheirTitles() {
    try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
      server.otherwise(FakeOpenAiServer.CHAT, TextPassagesIT::read);
      Path profile =
          TestFiles.lines(dir, "llm.properties", List.of(KgragConf.LLM_URL + " " + server.baseUrl(), KgragConf.LLM_MODEL + " reader-model",
              KgragConf.LLM_API_KEY_ENV + " KGRAG_TEST_LLM_API_KEY", KgragConf.LLM_TIMEOUT + " 5", KgragConf.LLM_MAX_RETRIES + " 1"));
      String[] args = {"qa", "--method", "qafd", "--warehouse", wh.toString(), "--questions", qs.toString(), "--dataset", "people", "--generator", "llm",
          "--conf-file", profile.toString(), "--run-id", "read-1"};
      Cli r = Cli.run(args);
      assertEquals(0, r.code, r.toString());
      assertEquals(PEOPLE.length, server.requests(FakeOpenAiServer.CHAT).size(), "one request per question: " + server.requests());

      Catalog c = catalog();
      Map<String, Row> a = new HashMap<>();
      for (Row row : c.read(KgTable.ANSWERS).filter(col("run_id").equalTo("read-1")).collectAsList()) {
        a.put(row.getAs("qid"), row);
      }
      Map<String, Row> extractive = new HashMap<>();
      for (Row row : c.read(KgTable.ANSWERS).filter(col("run_id").equalTo("p1").and(col("method").equalTo("qafd"))).collectAsList()) {
        extractive.put(row.getAs("qid"), row);
      }
      assertEquals(COUNTRIES[0], a.get("q0").getAs("answer"), a.toString());
      assertTrue(((String) a.get("q0").getAs("reason")).startsWith("read by the LLM from the top passages"), a.toString());
      // a reply the passages do not hold: the method's own answer stands
      assertEquals(extractive.get("q1").<String>getAs("answer"), a.get("q1").getAs("answer"));
      assertTrue(((String) a.get("q1").getAs("reason")).contains("the method's answer stands"), a.toString());
      assertEquals("unable", a.get("q2").getAs("status"));
      assertTrue(a.get("q2").isNullAt(a.get("q2").fieldIndex("answer")), a.toString());
      // a span of a passage that is no entity: the answer, first in the ranking without an entity id, cited by its passage
      assertEquals("born in " + CITIES[3], a.get("q3").getAs("answer"));
      assertEquals("fallback", a.get("q3").getAs("status"), "no verified subgraph binds a span of a passage");
      Row first = a.get("q3").<Row>getList(a.get("q3").fieldIndex("ranked")).get(0);
      assertEquals("born in " + CITIES[3], first.getString(0));
      assertTrue(first.isNullAt(1));
      long chunk = Long.parseLong(((String) a.get("q3").getAs("reason")).replaceAll(".*chunk ", ""));
      Row cited = c.read(KgTable.CHUNKS).filter(col("chunk_id").equalTo(chunk)).join(c.read(KgTable.DOCUMENTS).select("doc_id", "title"), "doc_id").head();
      assertEquals(PEOPLE[3], cited.getAs("title"));
      assertEquals(0, c.read(KgTable.EVIDENCE).filter(col("run_id").equalTo("read-1").and(col("qid").isin("q2", "q3"))).count());

      // the prompt: the question's top passages in rank order, each under its document's title, then the method's candidates
      String user = server.requests(FakeOpenAiServer.CHAT).stream().map(q -> q.json().get("messages").get(1).get("content").asText())
          .filter(u -> u.contains("was " + PEOPLE[0] + " born")).findFirst().orElseThrow();
      List<Row> top =
          c.read(KgTable.RETRIEVED_PASSAGES).filter(col("run_id").equalTo("read-1").and(col("qid").equalTo("q0")).and(col("rank").leq(5)))
              .join(c.read(KgTable.CHUNKS).select("chunk_id", "text"), "chunk_id").join(c.read(KgTable.DOCUMENTS).select("doc_id", "title"), "doc_id")
              .orderBy("rank").select("title", "text").collectAsList();
      StringBuilder expected = new StringBuilder();
      for (int i = 0; i < top.size(); i++) {
        expected.append("Passage ").append(i + 1).append(" — ").append(top.get(i).getString(0)).append('\n').append(top.get(i).getString(1).strip()).append("\n\n");
      }
      assertTrue(user.startsWith(expected.toString()), "expected the passages\n" + expected + "\nin\n" + user);
      assertTrue(user.endsWith("Question: In which country was " + PEOPLE[0] + " born?\nAnswer:"), user);

      Row run = c.read(KgTable.RUNS).filter(col("run_id").equalTo("read-1").and(col("stage").equalTo("qa"))).head();
      Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
      assertEquals((long) PEOPLE.length, rows.get("reader.requests"), rows.toString());
      assertEquals(1L, rows.get("reader.unmatched"), rows.toString());
      assertTrue(c.read(KgTable.LLM_CACHE).filter(col("model").equalTo("reader-model")).count() >= PEOPLE.length);

      // again under another run id: every reply from the cache, the same answers
      args[args.length - 1] = "read-2";
      Cli again = Cli.run(args);
      assertEquals(0, again.code, again.toString());
      assertEquals(PEOPLE.length, server.requests(FakeOpenAiServer.CHAT).size(), "no request sent again: " + server.requests());
      Row run2 = c.read(KgTable.RUNS).filter(col("run_id").equalTo("read-2").and(col("stage").equalTo("qa"))).head();
      Map<String, Long> rows2 = run2.getJavaMap(run2.fieldIndex("rows"));
      assertEquals(0L, rows2.get("reader.requests"), rows2.toString());
      assertEquals((long) PEOPLE.length, rows2.get("reader.cache_hits"), rows2.toString());
      assertEquals(a.get("q3").<String>getAs("answer"),
          c.read(KgTable.ANSWERS).filter(col("run_id").equalTo("read-2").and(col("qid").equalTo("q3"))).head().getAs("answer"));
    } finally {
      for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_TIMEOUT, KgragConf.LLM_MAX_RETRIES)) {
        SparkTestSession.get().conf().unset(k);
      }
    }
  }
}
