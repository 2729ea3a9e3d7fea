package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.posexplode;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.struct;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.passage.DenseRanker;
import io.kgrag.core.passage.PassageGraph;
import io.kgrag.core.passage.PassageRanker;
import io.kgrag.core.passage.PersonalizedPageRank;
import io.kgrag.core.passage.RetrievedPassage;
import io.kgrag.core.passage.TitlePages;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Fills {@code retrieved_passages} for a run over a graph built from text: the corpus's entities, chunks and edges
 * become one {@link PassageGraph} (collected once and broadcast, as the methods' graphs are); on the executors each
 * question's linked entities (its query graph's nodes, each node's candidates sharing its weight; the evidence edges'
 * ends when the method wrote no linked entity), the chunks dense retrieval finds for its text (where the chunks are
 * embedded; {@link #DENSE_WEIGHT}) and its evidence edges go to a {@link PassageRanker}. A method that ranked its
 * passages itself (dense) keeps them. Over a graph of triples only (no {@code chunks}) it writes nothing.
 */
public final class PassageRetrieval {
  /** Spark setting: how many chunks each question keeps (default 10). */
  static final String LIMIT = "spark.kgrag.passages.limit";

  /**
   * Spark setting: the restart weight of the chunks dense retrieval finds for a question, against 1 for a linked entity
   * (default 0.05, HippoRAG 2's passage-node weight; 0: the graph alone). Used where the corpus's chunks are embedded.
   */
  static final String DENSE_WEIGHT = "spark.kgrag.passages.dense-weight";

  /**
   * Spark setting: the restart weight of a linked entity the question writes as a common word ("book", "artist"),
   * against 1 for a name (default 0.1; see {@link PassageRanker#entitySeedWeight}; 1: every linked entity alike).
   */
  static final String COMMON_WORD_WEIGHT = "spark.kgrag.passages.common-word-weight";

  /**
   * Spark setting: the weight of the walk's step from an entity to a chunk of its own page (a document whose title
   * names it), against 1 for any other chunk that mentions it (default 10, chosen on MuSiQue-100 dev with both extractors; 1: pages are not told apart).
   */
  static final String PAGE_WEIGHT = "spark.kgrag.passages.page-weight";

  private static final StructType ROW = KgTable.RETRIEVED_PASSAGES.schema();

  /** A passage a method ranked itself (a question's {@code passages}, rank order). */
  static final StructType PASSAGE =
      new StructType()
          .add("chunk_id", DataTypes.LongType, false)
          .add("doc_id", DataTypes.StringType, false)
          .add("score", DataTypes.DoubleType, false)
          .add("via", ROW.apply("via").dataType(), false);

  private PassageRetrieval() {}

  /** Whether the warehouse holds a graph built from text. */
  public static boolean applies(Catalog catalog) {
    return catalog.exists(KgTable.CHUNKS) && catalog.exists(KgTable.ENTITY_MENTIONS) && catalog.exists(KgTable.RELATIONS)
        && catalog.exists(KgTable.EDGE_CHUNKS) && !catalog.read(KgTable.CHUNKS).isEmpty();
  }

  /**
   * The passages of every question of {@code queryGraphs} (qid, nodes) and {@code answered} (qid, evidence), as rows
   * of {@link KgTable#RETRIEVED_PASSAGES}; a question of {@code methodPassages} (qid, passages of {@link #PASSAGE})
   * keeps the passages its method ranked (the first {@link #LIMIT}) instead.
   */
  static Dataset<Row> rank(
      Catalog catalog, String runId, String method, String dataset, Dataset<Row> queryGraphs, Dataset<Row> answered, Dataset<Row> methodPassages,
      Dataset<Row> questions, EmbedderSpec embedder) {
    int limit = limit(catalog);
    double denseWeight = denseWeight(catalog);
    double commonWord = commonWordWeight(catalog);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(catalog.spark().sparkContext());
    Broadcast<PassageGraph> graph = jsc.broadcast(graph(catalog, pageWeight(catalog)));
    DenseRanker denseRanker = denseWeight > 0 ? denseRanker(catalog, embedder.modelId()) : null;
    Broadcast<DenseRanker> dense = denseRanker == null ? null : jsc.broadcast(denseRanker);
    Dataset<Row> seeds =
        queryGraphs.select(col("qid"), explode(col("nodes")).as("n"))
            .filter(col("n.entity_ids").isNotNull().and(size(col("n.entity_ids")).gt(0)))
            .select(col("qid"), explode(col("n.entity_ids")).as("entity_id"), lit(1.0).divide(size(col("n.entity_ids"))).as("w"), col("n.label").as("label"))
            .filter(col("entity_id").isNotNull())
            .groupBy("qid").agg(collect_list(struct(col("entity_id"), col("w"), col("label"))).as("seeds"));
    Dataset<Row> rel = catalog.read(KgTable.RELATIONS).select(col("edge_id"), col("src_id").as("src"), col("relation"), col("dst_id").as("dst"));
    Dataset<Row> edges =
        answered.select(col("qid"), posexplode(col("evidence")).as(new String[] {"pos", "e"}))
            .select(col("qid"), col("pos"), col("e.src").as("src"), col("e.relation").as("relation"), col("e.dst").as("dst"))
            .join(rel, scala(List.of("src", "relation", "dst")))
            .groupBy("qid").agg(collect_list(struct(col("pos"), col("edge_id"), col("src"), col("dst"))).as("edges"));
    // every question, also one whose method linked nothing and cited nothing: dense retrieval may still seed it
    Dataset<Row> perQuestion =
        questions.select("qid", "question").join(seeds, scala(List.of("qid")), "left").join(edges, scala(List.of("qid")), "left")
            .join(methodPassages.select(col("qid"), col("passages").as("own")), scala(List.of("qid")), "left");
    return perQuestion.mapPartitions(
        (MapPartitionsFunction<Row, Row>) it -> {
          try (Embedder e = embedder.openLazily()) {
            return ranked(new PassageRanker(graph.value(), new PersonalizedPageRank()).limit(limit), dense == null ? null : dense.value(), e, denseWeight,
                commonWord, runId, method, dataset, it);
          }
        },
        Encoders.row(ROW));
  }

  private static Iterator<Row> ranked(
      PassageRanker ranker, DenseRanker dense, Embedder embedder, double denseWeight, double commonWord, String runId, String method, String dataset,
      Iterator<Row> it) {
    List<Row> out = new ArrayList<>();
    while (it.hasNext()) {
      Row r = it.next();
      String qid = r.getString(r.fieldIndex("qid"));
      if (!r.isNullAt(r.fieldIndex("own"))) {
        List<Row> own = r.getList(r.fieldIndex("own"));
        for (int i = 0; i < Math.min(ranker.limit(), own.size()); i++) {
          Row p = own.get(i);
          out.add(RowFactory.create(runId, method, dataset, qid, i + 1, p.getLong(0), p.getString(1), p.getDouble(2), p.getStruct(3)));
        }
        continue;
      }
      String question = r.isNullAt(r.fieldIndex("question")) ? null : r.getString(r.fieldIndex("question"));
      Map<Long, Double> seeds = new TreeMap<>();
      if (!r.isNullAt(r.fieldIndex("seeds"))) {
        for (Row s : r.<Row>getList(r.fieldIndex("seeds"))) {
          double asWritten = PassageRanker.entitySeedWeight(question, s.isNullAt(2) ? null : s.getString(2), commonWord);
          seeds.merge(s.getLong(0), asWritten * s.getDouble(1), Double::sum);
        }
      }
      List<Row> ev = r.isNullAt(r.fieldIndex("edges")) ? new ArrayList<>() : new ArrayList<>(r.<Row>getList(r.fieldIndex("edges")));
      ev.sort(Comparator.comparingInt((Row e) -> e.getInt(0)).thenComparingLong(e -> e.getLong(1)));
      List<Long> edgeIds = new ArrayList<>();
      boolean fromEvidence = seeds.isEmpty(); // the method linked no entity: spread from what its answer cites
      for (Row e : ev) {
        edgeIds.add(e.getLong(1));
        if (fromEvidence) {
          seeds.merge(e.getLong(2), 1.0, Double::sum);
          seeds.merge(e.getLong(3), 1.0, Double::sum);
        }
      }
      Map<Long, Double> chunkSeeds = Map.of();
      Map<Long, Double> cosines = new java.util.HashMap<>();
      if (dense != null && question != null && !question.isBlank()) {
        chunkSeeds = PassageRanker.denseSeeds(dense.rank(embedder.embed(List.of(question))[0], ranker.limit()), denseWeight, cosines);
      }
      List<RetrievedPassage> passages = ranker.rank(seeds, chunkSeeds, cosines, edgeIds);
      for (int i = 0; i < passages.size(); i++) {
        RetrievedPassage p = passages.get(i);
        out.add(
            RowFactory.create(
                runId, method, dataset, qid, i + 1, p.chunkId(), p.docId(), p.score(), via(p)));
      }
    }
    return out.iterator();
  }

  /** {@code passages} as rows of {@link #PASSAGE}. */
  static Row[] rows(List<RetrievedPassage> passages) {
    Row[] out = new Row[passages.size()];
    for (int i = 0; i < out.length; i++) {
      RetrievedPassage p = passages.get(i);
      out[i] = RowFactory.create(p.chunkId(), p.docId(), p.score(), via(p));
    }
    return out;
  }

  private static Row via(RetrievedPassage p) {
    return RowFactory.create(p.viaEntities().toArray(new Long[0]), p.viaEdges().toArray(new Long[0]), Double.isNaN(p.viaDense()) ? null : p.viaDense());
  }

  /**
   * Reads {@link #LIMIT}, {@link #DENSE_WEIGHT}, {@link #COMMON_WORD_WEIGHT} and {@link #PAGE_WEIGHT}, so that a run refuses a bad value before it answers anything.
   *
   * @throws io.kgrag.core.UserInputException naming the setting
   */
  static void checkSettings(Catalog catalog) {
    limit(catalog);
    denseWeight(catalog);
    commonWordWeight(catalog);
    pageWeight(catalog);
  }

  /**
   * How many chunks each question keeps: {@link #LIMIT} of the run's session (default 10).
   *
   * @throws io.kgrag.core.UserInputException when the setting is not a whole number of at least 1
   */
  public static int limit(Catalog catalog) {
    return wholeSetting(catalog, LIMIT, 10);
  }

  /**
   * Spark setting {@code key} of the run's session as a whole number of at least 1 ({@code dflt} when unset).
   *
   * @throws io.kgrag.core.UserInputException naming the setting when it is not one
   */
  static int wholeSetting(Catalog catalog, String key, int dflt) {
    String v = catalog.spark().conf().get(key, Integer.toString(dflt));
    try {
      int k = Integer.parseInt(v.strip());
      if (k >= 1) {
        return k;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new io.kgrag.core.UserInputException(key + " must be a whole number of at least 1, got '" + v + "'");
  }

  private static double denseWeight(Catalog catalog) {
    return weightSetting(catalog, DENSE_WEIGHT, 0.05);
  }

  private static double commonWordWeight(Catalog catalog) {
    return weightSetting(catalog, COMMON_WORD_WEIGHT, 0.1);
  }

  private static double pageWeight(Catalog catalog) {
    double w = weightSetting(catalog, PAGE_WEIGHT, 10.0);
    if (w <= 0) {
      throw new io.kgrag.core.UserInputException(PAGE_WEIGHT + " must be a number above 0, got '" + catalog.spark().conf().get(PAGE_WEIGHT) + "'");
    }
    return w;
  }

  /**
   * Spark setting {@code key} of the run's session as a finite number of at least 0 ({@code dflt} when unset).
   *
   * @throws io.kgrag.core.UserInputException naming the setting when it is not one
   */
  private static double weightSetting(Catalog catalog, String key, double dflt) {
    String v = catalog.spark().conf().get(key, Double.toString(dflt));
    try {
      double w = Double.parseDouble(v.strip());
      if (w >= 0 && Double.isFinite(w)) {
        return w;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new io.kgrag.core.UserInputException(key + " must be a number of at least 0, got '" + v + "'");
  }

  /**
   * The dense ranker over the chunk embeddings of {@code model} ({@code chunk_embeddings} joined with {@code chunks},
   * in chunk id order), or null when the warehouse has none.
   */
  public static DenseRanker denseRanker(Catalog catalog, String model) {
    if (!catalog.exists(KgTable.CHUNK_EMBEDDINGS) || !catalog.exists(KgTable.CHUNKS)) {
      return null;
    }
    List<Row> rows =
        catalog.read(KgTable.CHUNK_EMBEDDINGS).filter(col("model").equalTo(model)).select("chunk_id", "vector")
            .join(catalog.read(KgTable.CHUNKS).select("chunk_id", "doc_id"), "chunk_id")
            .orderBy("chunk_id").collectAsList();
    if (rows.isEmpty()) {
      return null;
    }
    long[] ids = new long[rows.size()];
    String[] docs = new String[rows.size()];
    float[][] vectors = new float[rows.size()][];
    for (int i = 0; i < ids.length; i++) {
      Row r = rows.get(i);
      ids[i] = r.getLong(0);
      List<Float> v = r.getList(1);
      vectors[i] = new float[v.size()];
      for (int j = 0; j < vectors[i].length; j++) {
        vectors[i][j] = v.get(j);
      }
      docs[i] = r.getString(2);
    }
    return new DenseRanker(ids, docs, vectors);
  }

  /** The corpus's passage graph, read from the text tables (mentions of chunks that are gone are left out). */
  static PassageGraph graph(Catalog catalog, double pageWeight) {
    PassageGraph.Builder b = PassageGraph.builder().pageWeight(pageWeight);
    Dataset<Row> chunks = catalog.read(KgTable.CHUNKS).select("chunk_id", "doc_id");
    for (Row r : chunks.collectAsList()) {
      b.chunk(r.getLong(0), r.getString(1));
    }
    Dataset<Row> ids = chunks.select("chunk_id");
    // each mention of a chunk that exists, flagged where the chunk's document is the entity's page (matched on the executors)
    Dataset<Row> mentions = catalog.read(KgTable.ENTITY_MENTIONS).select("entity_id", "chunk_id").distinct().join(chunks, "chunk_id");
    if (catalog.exists(KgTable.DOCUMENTS) && catalog.exists(KgTable.ENTITIES)) {
      UserDefinedFunction names = functions.udf((UDF2<String, String, Boolean>) TitlePages::names, DataTypes.BooleanType);
      mentions = mentions.join(catalog.read(KgTable.DOCUMENTS).select("doc_id", "title"), scala(List.of("doc_id")), "left")
          .join(catalog.read(KgTable.ENTITIES).select("entity_id", "label"), scala(List.of("entity_id")), "left")
          .withColumn("page", names.apply(col("title"), col("label")));
    } else {
      mentions = mentions.withColumn("page", lit(false));
    }
    for (Row r : mentions.select("entity_id", "chunk_id", "page").collectAsList()) {
      b.mention(r.getLong(0), r.getLong(1));
      if (r.getBoolean(2)) {
        b.page(r.getLong(0), r.getLong(1));
      }
    }
    for (Row r : catalog.read(KgTable.RELATIONS).select("edge_id", "src_id", "dst_id").collectAsList()) {
      b.edge(r.getLong(0), r.getLong(1), r.getLong(2));
    }
    for (Row r : catalog.read(KgTable.EDGE_CHUNKS).select("edge_id", "chunk_id").distinct().join(ids, "chunk_id").select("edge_id", "chunk_id").collectAsList()) {
      b.edgeChunk(r.getLong(0), r.getLong(1));
    }
    return b.build();
  }

  private static scala.collection.immutable.Seq<String> scala(List<String> cols) {
    return scala.collection.JavaConverters.asScalaBuffer(cols).toList();
  }
}
