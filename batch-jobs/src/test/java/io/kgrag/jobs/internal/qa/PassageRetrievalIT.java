package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.passage.PassageRanker;
import io.kgrag.core.passage.PersonalizedPageRank;
import io.kgrag.core.passage.RetrievedPassage;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.eval.RunEvaluator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link PassageRetrieval} over text tables written by hand (no extraction), and passage recall in {@link
 * RunEvaluator} over what it ranked. Documents d1..d4, one chunk each (chunk = 10 x document number); entities 1..5:
 * d1 mentions 1 and 2, d2 mentions 2 and 3, d3 mentions 4, d4 mentions 5. Edges: 100 = 1 -r-> 2 (read from d1),
 * 200 = 2 -r-> 3 (read from d2), 400 = 4 -r-> 5 (read from d4).
 */
class PassageRetrievalIT {
  private static SparkSession spark;
  private static Catalog catalog;
  private static Map<String, List<Long>> chunks;

  @BeforeAll
  static void writeTheCorpusAndRank() {
    spark = SparkTestSession.get();
    catalog = new Catalog(spark, SparkTestSession.newDir("passages").toString());
    List<Row> docs = new ArrayList<>();
    List<Row> ch = new ArrayList<>();
    for (int d = 1; d <= 4; d++) {
      docs.add(RowFactory.create("d" + d, "T" + d, "text " + d, "test", "test#" + d, 6, "r0"));
      ch.add(RowFactory.create(10L * d, "d" + d, 0, 0, 6, "text " + d));
    }
    catalog.overwrite(KgTable.DOCUMENTS, spark.createDataFrame(docs, KgTable.DOCUMENTS.schema()));
    catalog.overwrite(KgTable.CHUNKS, spark.createDataFrame(ch, KgTable.CHUNKS.schema()));
    List<Row> men = new ArrayList<>();
    long[][] m = {{1, 10}, {2, 10}, {2, 20}, {3, 20}, {4, 30}, {5, 40}, {5, 99}}; // chunk 99 does not exist
    for (long[] x : m) {
      men.add(RowFactory.create(x[0], x[1], "e" + x[0], null, null));
    }
    catalog.overwrite(KgTable.ENTITY_MENTIONS, spark.createDataFrame(men, KgTable.ENTITY_MENTIONS.schema()));
    List<Row> rel = List.of(RowFactory.create(100L, 1L, "r", 2L, null, "text"), RowFactory.create(200L, 2L, "r", 3L, null, "text"),
        RowFactory.create(400L, 4L, "r", 5L, null, "text"));
    catalog.overwrite(KgTable.RELATIONS, spark.createDataFrame(rel, KgTable.RELATIONS.schema()));
    List<Row> ec = List.of(RowFactory.create(100L, 10L, null, 1.0), RowFactory.create(200L, 20L, null, 1.0), RowFactory.create(400L, 40L, null, 1.0));
    catalog.overwrite(KgTable.EDGE_CHUNKS, spark.createDataFrame(ec, KgTable.EDGE_CHUNKS.schema()));

    // q1 links entity 1; q2 links nothing and cites edge 400; q3 links entity 3 and cites edge 100
    // q6 links entities 1 and 4 (labels E1, E4) and writes "e1" as a common word: E4's chunk first
    List<Row> graphs = List.of(graph("q1", 1L), graph("q2"), graph("q3", 3L), graph("q6", 1L, 4L));
    StructType qgSchema = new StructType().add("qid", DataTypes.StringType).add("nodes", DataTypes.createArrayType(QueryGraphRows.NODE, false));
    StructType evSchema = new StructType().add("qid", DataTypes.StringType).add("evidence", DataTypes.createArrayType(QaOutput.EVIDENCE_ROW, false));
    List<Row> answered = List.of(
        RowFactory.create("q1", new Row[0]),
        RowFactory.create("q2", new Row[] {RowFactory.create(4L, "e4", "r", 5L, "e5")}),
        RowFactory.create("q3", new Row[] {RowFactory.create(1L, "e1", "r", 2L, "e2"), RowFactory.create(1L, "e1", "not an edge", 2L, "e2")}));
    // q4 keeps the passages its method ranked itself, cut at the limit
    StructType ownSchema = new StructType().add("qid", DataTypes.StringType).add("passages", DataTypes.createArrayType(PassageRetrieval.PASSAGE, false));
    List<RetrievedPassage> own = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      own.add(new RetrievedPassage(30L, "d3", 1.0 - i / 100.0, List.of(), List.of(), 1.0 - i / 100.0));
    }
    List<Row> owns = List.<Row>of(RowFactory.create("q4", PassageRetrieval.rows(own)));
    Dataset<Row> ranked =
        PassageRetrieval.rank(catalog, "run", "m", "set", spark.createDataFrame(graphs, qgSchema), spark.createDataFrame(answered, evSchema),
            spark.createDataFrame(owns, ownSchema), spark.createDataFrame(List.of(RowFactory.create("q1", "one?"), RowFactory.create("q2", "two?"), RowFactory.create("q3", "three?"),
                RowFactory.create("q4", "four?"), RowFactory.create("q5", "five, which links nothing and cites nothing?"),
                RowFactory.create("q6", "Which e1 is joined to E4?")),
                new StructType().add("qid", DataTypes.StringType).add("question", DataTypes.StringType)),
            io.kgrag.core.embed.EmbedderSpec.onnx().build());
    catalog.overwrite(KgTable.RETRIEVED_PASSAGES, ranked);
    chunks = new HashMap<>();
    for (Row r : catalog.read(KgTable.RETRIEVED_PASSAGES).orderBy("qid", "rank").collectAsList()) {
      chunks.computeIfAbsent(r.getString(r.fieldIndex("qid")), k -> new ArrayList<>()).add(r.getLong(r.fieldIndex("chunk_id")));
    }
  }

  private static Row graph(String qid, Long... entities) {
    QueryGraph.Builder b = QueryGraph.builder();
    int t = b.unknown(null);
    for (Long e : entities) {
      b.edge(t, b.entity("E" + e), null);
    }
    QueryGraph qg = b.build();
    return RowFactory.create(qid, QueryGraphRows.nodes(qg, id -> id == t ? null : new long[] {entities[id - 1]}).toArray(new Row[0]));
  }

  @Test
  void chunksAreRankedByTheSpreadFromTheLinkedEntities() {
    assertEquals(List.of(10L, 20L), chunks.get("q1"), "entity 1 reaches d1 and, through 2, d2; never d3 or d4");
    assertEquals(List.of(30L, 40L), chunks.get("q2"), "no linked entity: spread from the evidence edge's ends (a tie: lower chunk first)");
    assertEquals(List.of(20L, 10L), chunks.get("q3"), "the linked entity's chunk first; the cited edge's chunk is reached through 2");
    assertEquals(10, chunks.get("q4").size(), "a method's own ranking, cut at the default limit of 10");
    assertEquals(null, chunks.get("q5"), "no seed at all (and no chunk embeddings): no passage");
    assertEquals(List.of(30L, 40L, 10L, 20L), chunks.get("q6"), "E4, a name, weighs 1; e1, written as a common word, 0.1");
    Row via = catalog.read(KgTable.RETRIEVED_PASSAGES).filter(col("qid").equalTo("q3").and(col("rank").equalTo(2))).select("via.edges", "method", "run_id").head();
    assertEquals(List.of(100L), via.getList(0));
    assertEquals("m", via.getString(1));
  }

  @Test
  void evalScoresRecallAgainstTheSupportingTitles() {
    List<Row> questions = new ArrayList<>();
    questions.add(RowFactory.create("set", "q1", "q one", List.of("x"), Map.of("supporting_titles", "[\"T2\",\"T3\"]"), null));
    questions.add(RowFactory.create("set", "q2", "q two", List.of("x"), Map.of("supporting_docs", "[\"d4\"]"), null));
    questions.add(RowFactory.create("set", "q3", "q three", List.of("x"), Map.of(), null));
    catalog.overwrite(KgTable.QUESTIONS, spark.createDataFrame(questions, KgTable.QUESTIONS.schema()));
    List<Row> answers = new ArrayList<>();
    for (String q : List.of("q1", "q2", "q3")) {
      answers.add(RowFactory.create("run", "m", "set", q, "x", List.of(), "partial", null, 1.0));
    }
    catalog.overwrite(KgTable.ANSWERS, spark.createDataFrame(answers, KgTable.ANSWERS.schema()));
    RunEvaluator.Result r = new RunEvaluator(catalog).evaluate("run");
    RunEvaluator.SliceMetrics all = r.metrics().stream().filter(s -> s.slice().equals("all")).findFirst().orElseThrow();
    assertEquals(2, all.passages().n(), "q3 has no supporting passages");
    assertEquals((0.5 + 1.0) / 2, all.passages().r2(), 1e-12, "q1 finds T2 of T2, T3; q2 finds d4 by id");
    assertEquals(20, r.passages());
    assertEquals(0, r.passagesNotInChunks());
  }

  @Test
  void anEntitysMentionInItsOwnPageWeighsThePageWeight() {
    // entity 2 is mentioned in d1 (chunk 10) and d2 (chunk 20); d2's title "T2" names it
    List<Row> entities = new ArrayList<>();
    for (long e = 1; e <= 5; e++) {
      entities.add(RowFactory.create(e, "k" + e, e == 2 ? "the t2" : "e" + e, null, "test"));
    }
    catalog.overwrite(KgTable.ENTITIES, spark.createDataFrame(entities, KgTable.ENTITIES.schema()));
    double[] ratio = new double[2];
    double[] weights = {1.0, 5.0};
    for (int i = 0; i < 2; i++) {
      List<RetrievedPassage> r = new PassageRanker(PassageRetrieval.graph(catalog, weights[i]), new PersonalizedPageRank()).rank(Map.of(2L, 1.0), Map.of(), List.of());
      Map<Long, Double> score = new HashMap<>();
      r.forEach(p -> score.put(p.chunkId(), p.score()));
      ratio[i] = score.get(20L) / score.get(10L);
    }
    assertTrue(ratio[1] > 2 * ratio[0], "page weight 5 moves entity 2's mass to its page: " + Arrays.toString(ratio));
  }

  @Test
  void badSettingsAreRefusedNamingTheKey() {
    for (String[] kv : new String[][] {{PassageRetrieval.LIMIT, "0"}, {PassageRetrieval.LIMIT, "ten"}, {PassageRetrieval.DENSE_WEIGHT, "-1"},
        {PassageRetrieval.DENSE_WEIGHT, "NaN"}, {PassageRetrieval.COMMON_WORD_WEIGHT, "some"}, {PassageRetrieval.PAGE_WEIGHT, "0"}}) {
      spark.conf().set(kv[0], kv[1]);
      try {
        io.kgrag.core.UserInputException e =
            assertThrows(io.kgrag.core.UserInputException.class, () -> PassageRetrieval.checkSettings(catalog));
        assertTrue(e.getMessage().contains(kv[0]) && e.getMessage().contains(kv[1]), e.getMessage());
      } finally {
        spark.conf().unset(kv[0]);
      }
    }
    PassageRetrieval.checkSettings(catalog);
  }
}
