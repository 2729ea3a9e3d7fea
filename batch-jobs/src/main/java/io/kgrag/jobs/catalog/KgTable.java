package io.kgrag.jobs.catalog;

import static org.apache.spark.sql.types.DataTypes.BinaryType;
import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.FloatType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;
import static org.apache.spark.sql.types.DataTypes.TimestampType;
import static org.apache.spark.sql.types.DataTypes.createArrayType;
import static org.apache.spark.sql.types.DataTypes.createMapType;

import java.util.Arrays;
import java.util.Locale;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Every Delta table kgrag writes: its name in database {@code kgrag}, its schema, and a one-line
 * description. Locations are {@code <warehouse>/<name>}; see {@link Catalog}.
 */
public enum KgTable {
  ENTITIES(
      "Nodes of the knowledge graph; entity_id is a stable hash of key",
      col("entity_id", LongType, false),
      col("key", StringType, false),
      col("label", StringType, false),
      col("description", StringType, true),
      col("source", StringType, true)),
  RELATIONS(
      "Directed labelled edges; edge_id is a stable hash of (src key, relation, dst key)",
      col("edge_id", LongType, false),
      col("src_id", LongType, false),
      col("relation", StringType, false),
      col("dst_id", LongType, false),
      col("description", StringType, true),
      col("source", StringType, true)),
  INGEST_REJECTS(
      "Every input line that was not accepted, with its reason",
      col("source", StringType, false),
      col("line_no", LongType, false),
      col("raw", StringType, true),
      col("reason", StringType, false),
      col("run_id", StringType, false)),
  DOCUMENTS(
      "Documents of text corpora (kgrag index --format text|jsonl|json-corpus); doc_id is the SHA-256 of title and text,"
          + " so an unchanged document is skipped on re-index; uri is where it was read (file, #id or #title, :line)",
      col("doc_id", StringType, false),
      col("title", StringType, true),
      col("text", StringType, false),
      col("source", StringType, true),
      col("uri", StringType, false),
      col("chars", IntegerType, false),
      col("run_id", StringType, false)),
  CHUNKS(
      "Sentence-aligned spans of documents that extraction reads; chunk_id is a stable hash of (doc_id, seq),"
          + " start/end are character offsets in documents.text",
      col("chunk_id", LongType, false),
      col("doc_id", StringType, false),
      col("seq", IntegerType, false),
      col("start", IntegerType, false),
      col("end", IntegerType, false),
      col("text", StringType, false)),
  CHUNK_EXTRACTIONS(
      "One row per chunk and extraction: the extractor, ok or failed (with the error), entities and triples kept,"
          + " records rejected with their reasons, tokens spent and milliseconds taken",
      col("chunk_id", LongType, false),
      col("extractor", StringType, false),
      col("status", StringType, false),
      col("entities", IntegerType, false),
      col("triples", IntegerType, false),
      col("rejected", createArrayType(StringType, false), false),
      col("error", StringType, true),
      col("tokens_in", LongType, false),
      col("tokens_out", LongType, false),
      col("ms", DoubleType, false)),
  ENTITY_MENTIONS(
      "Where each text entity was read: the chunk, the name as written there, its type and what the chunk says of it",
      col("entity_id", LongType, false),
      col("chunk_id", LongType, false),
      col("name", StringType, false),
      col("type", StringType, true),
      col("description", StringType, true)),
  EDGE_CHUNKS(
      "The chunks each text edge was read from, with the supporting sentence and the extractor's confidence",
      col("edge_id", LongType, false),
      col("chunk_id", LongType, false),
      col("description", StringType, true),
      col("confidence", DoubleType, false)),
  GRAPH_SCHEMA(
      "The graph's schema, computed from the graph by the schema stage: every relation walked forwards and backwards (a"
          + " role) with its edges, distinct start and end nodes, the edges that end at a number (least and greatest), and"
          + " the roles that can follow it with the nodes where they join (the entities and relations versions it was"
          + " computed from are in the schema stage's runs row)",
      col("relation", StringType, false),
      col("forward", BooleanType, false),
      col("edges", LongType, false),
      col("starts", LongType, false),
      col("ends", LongType, false),
      col("values_per_start", DoubleType, false),
      col("numeric_edges", LongType, false),
      col("least", DoubleType, true),
      col("greatest", DoubleType, true),
      col("followed_by", createMapType(StringType, LongType, false), false)),
  ENTITY_EMBEDDINGS(
      "Label embeddings of entities (L2-normalised), with the label they were computed from",
      col("entity_id", LongType, false),
      col("model", StringType, false),
      col("label", StringType, false),
      col("vector", createArrayType(FloatType, false), false)),
  RELATION_EMBEDDINGS(
      "Embeddings of relation names made readable (directed_by -> 'directed by')",
      col("relation", StringType, false),
      col("model", StringType, false),
      col("label", StringType, false),
      col("vector", createArrayType(FloatType, false), false)),
  CHUNK_EMBEDDINGS(
      "Embeddings of the chunks of text corpora (L2-normalised; the text cut at 256 tokens, the model's training length),"
          + " with the text they were computed from; the dense method ranks chunks by them",
      col("chunk_id", LongType, false),
      col("model", StringType, false),
      col("text", StringType, false),
      col("vector", createArrayType(FloatType, false), false)),
  LABEL_INDEX(
      "SG-RAG's label index (the FAISS search of labels, Algorithm 3 line 4) per embedding model: one HNSW graph per shard"
          + " of the label keys (pmod(xxhash64(label_key), shards)), its serialised bytes cut into chunks of at most 16 MB;"
          + " built by the embed stage from entity_embeddings at source_version",
      col("model", StringType, false),
      col("source_version", LongType, false),
      col("shards", IntegerType, false),
      col("shard", IntegerType, false),
      col("labels", LongType, false),
      col("chunk", IntegerType, false),
      col("bytes", BinaryType, false)),
  RUNS(
      "One row per job stage run: what it read, wrote and how long it took",
      col("run_id", StringType, false),
      col("stage", StringType, false),
      col("input", StringType, true),
      col("started_at", TimestampType, false),
      col("duration_ms", LongType, false),
      col("rows", createMapType(StringType, LongType, false), true),
      col("versions", createMapType(StringType, LongType, false), true),
      col("status", StringType, false),
      col("message", StringType, true)),
  GNN_MODELS(
      "Trained dominance GNNs (SG-RAG Appendix C): weights, configuration and training metrics, by model_id",
      col("model_id", StringType, false),
      col("kind", StringType, false),
      col("params", BinaryType, false),
      col("config", StringType, true),
      col("metrics", createMapType(StringType, StringType, true), true),
      col("created_at", TimestampType, false)),
  NODE_DOMINANCE(
      "Every node's dominance vector: an upper bound of the GNN output over all substructures of its 1-hop star",
      col("entity_id", LongType, false),
      col("model_id", StringType, false),
      col("label_key", LongType, false),
      col("vector", createArrayType(FloatType, false), false)),
  PATHS(
      "Graph paths of length l in both orientations, with per-node label keys and concatenated dominance vectors",
      col("path_id", LongType, false),
      col("length", IntegerType, false),
      col("node_ids", createArrayType(LongType, false), false),
      col("relations", createArrayType(StringType, false), false),
      col("label_keys", createArrayType(LongType, false), false),
      col("label_key", LongType, false),
      col("dominance", createArrayType(FloatType, false), false),
      col("model_id", StringType, false)),
  PATH_INDEX(
      "One serialised R*-tree partition of the path index per row, with its bounding box and routing summary",
      col("partition_id", IntegerType, false),
      col("length", IntegerType, false),
      col("model_id", StringType, false),
      col("mbr_low", createArrayType(FloatType, false), false),
      col("mbr_high", createArrayType(FloatType, false), false),
      col("count", LongType, false),
      col("summary", BinaryType, false),
      col("tree", BinaryType, false)),
  PATH_PARTITIONING(
      "The partitioning of dominance space each path index was cut with (one row per path length), so that"
          + " `kgrag reindex` puts new paths into the partition whose cell holds them",
      col("length", IntegerType, false),
      col("model_id", StringType, false),
      col("num_partitions", IntegerType, false),
      col("target_size", LongType, false),
      col("partitioning", BinaryType, false),
      col("created_at", TimestampType, false)),
  QUESTIONS(
      "Questions read by `kgrag qa`, one row per input row; invalid_reason is set for rows that could not be read",
      col("dataset", StringType, false),
      col("qid", StringType, false),
      col("question", StringType, true),
      col("answers", createArrayType(StringType, false), true),
      col("meta", createMapType(StringType, StringType, true), true),
      col("invalid_reason", StringType, true)),
  QUERY_GRAPHS(
      "The query graph extracted from each question of a run (nodes with label or UNK, edges with phrases)",
      col("run_id", StringType, false),
      col("method", StringType, false),
      col("dataset", StringType, false),
      col("qid", StringType, false),
      col("extractor", StringType, false),
      col("nodes", createArrayType(QueryGraphRows.NODE, false), false),
      col("edges", createArrayType(QueryGraphRows.EDGE, false), false)),
  ANSWERS(
      "One row per question and run: the top answer, the ranked list with scores, status and latency",
      col("run_id", StringType, false),
      col("method", StringType, false),
      col("dataset", StringType, false),
      col("qid", StringType, false),
      col("answer", StringType, true),
      col("ranked", createArrayType(QueryGraphRows.RANKED, false), false),
      col("status", StringType, false),
      col("reason", StringType, true),
      col("latency_ms", DoubleType, false)),
  EVIDENCE(
      "The knowledge-graph edges that support each answer of a run; for edges read from text, the chunk they came from"
          + " (the lowest chunk_id of edge_chunks) and its text",
      col("run_id", StringType, false),
      col("method", StringType, false),
      col("dataset", StringType, false),
      col("qid", StringType, false),
      col("src", LongType, false),
      col("src_label", StringType, true),
      col("relation", StringType, false),
      col("dst", LongType, false),
      col("dst_label", StringType, true),
      col("chunk_id", LongType, true),
      col("chunk_text", StringType, true)),
  RETRIEVED_PASSAGES(
      "The chunks ranked for each question of a run over a graph built from text: first those its evidence edges were"
          + " (rank 1 first) by the personalised PageRank spread over entities and chunks from the question's linked entities and"
          + " the chunks dense retrieval found; via names the chunk's entities that carried the spread, the method's evidence"
          + " edges read from it, and its cosine to the question where dense retrieval found it (the dense method: its score)",
      col("run_id", StringType, false),
      col("method", StringType, false),
      col("dataset", StringType, false),
      col("qid", StringType, false),
      col("rank", IntegerType, false),
      col("chunk_id", LongType, false),
      col("doc_id", StringType, false),
      col("score", DoubleType, false),
      col("via", new StructType().add("entities", createArrayType(LongType, false), false).add("edges", createArrayType(LongType, false), false)
          .add("dense", DoubleType, true), false)),
  METRICS(
      "Evaluation of a run per method, dataset and slice: Hit@1, precision, recall, F1 over answer sets, exact match and token F1"
          + " of the top answer (SQuAD normalisation, for text QA), latency percentiles, for text corpora passage recall at"
          + " 2, 5 and 10 over the passage_n questions with supporting passages, Hit@3 (a gold answer among the first three"
          + " distinct answers) and gold_in_exact_set (answered exact, with a gold answer anywhere in the ranked list)",
      col("run_id", StringType, false),
      col("method", StringType, false),
      col("dataset", StringType, false),
      col("slice", StringType, false),
      col("n", LongType, false),
      col("hit1", DoubleType, false),
      col("precision", DoubleType, false),
      col("recall", DoubleType, false),
      col("f1", DoubleType, false),
      col("em", DoubleType, true),
      col("token_f1", DoubleType, true),
      col("latency_p50_ms", DoubleType, true),
      col("latency_p95_ms", DoubleType, true),
      col("latency_p99_ms", DoubleType, true),
      col("statuses", createMapType(StringType, LongType, false), true),
      col("computed_at", TimestampType, false),
      col("passage_n", LongType, true),
      col("passage_r2", DoubleType, true),
      col("passage_r5", DoubleType, true),
      col("passage_r10", DoubleType, true),
      col("hit3", DoubleType, true),
      col("gold_in_exact_set", DoubleType, true)),
  SRAG_TABLES(
      "SRAG's entity tables of a run (one per question), long form: one row per member and column, the values"
          + " in cell, normalised, as text (kind says how to read them: integer, decimal or text; multi whether the column holds arrays)",
      col("run_id", StringType, false),
      col("dataset", StringType, false),
      col("qid", StringType, false),
      col("entity_id", LongType, false),
      col("entity", StringType, true),
      col("column_name", StringType, false),
      col("kind", StringType, false),
      col("multi", org.apache.spark.sql.types.DataTypes.BooleanType, false),
      col("cell", createArrayType(StringType, false), false)),
  SRAG_QUERIES(
      "SRAG's analysis and SQL per question of a run: operation, entity set, table size, the SQL text, who wrote it, its result,"
          + " and the time each step took (analysis and table on an executor, the SQL's check and run on the driver)",
      col("run_id", StringType, false),
      col("dataset", StringType, false),
      col("qid", StringType, false),
      col("operation", StringType, true),
      col("entity_set", StringType, true),
      col("members", IntegerType, false),
      col("columns", createArrayType(StringType, false), false),
      col("sql", StringType, true),
      col("sql_source", StringType, true),
      col("result_rows", IntegerType, false),
      col("error", StringType, true),
      col("analyse_ms", DoubleType, false),
      col("table_ms", DoubleType, false),
      col("sql_ms", DoubleType, false)),
  LLM_CACHE(
      "Responses of the LLM endpoint by model and prompt hash, so that re-runs cost nothing; item_key is what the"
          + " prompt was asked about (kgrag qa: sha2 of the question text), by which a job joins its items with their replies",
      col("model", StringType, false),
      col("prompt_hash", StringType, false),
      col("response", StringType, false),
      col("tokens_in", IntegerType, true),
      col("tokens_out", IntegerType, true),
      col("item_key", StringType, true),
      col("created_at", TimestampType, false));

  private final String description;
  private final StructType schema;

  KgTable(String description, StructField... fields) {
    this.description = description;
    this.schema = new StructType(fields);
  }

  /** The table's name in database {@code kgrag} and its folder under the warehouse. */
  public String tableName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code kgrag.<name>}. */
  public String qualifiedName() {
    return Catalog.DATABASE + "." + tableName();
  }

  public StructType schema() {
    return schema;
  }

  public String description() {
    return description;
  }

  /** Column names in schema order. */
  public String[] columns() {
    return Arrays.stream(schema.fields()).map(StructField::name).toArray(String[]::new);
  }

  private static StructField col(String name, DataType type, boolean nullable) {
    return new StructField(name, type, nullable, Metadata.empty());
  }
}
