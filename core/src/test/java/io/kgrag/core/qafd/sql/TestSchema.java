package io.kgrag.core.qafd.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A small kgrag-like catalog and a bag-of-words embedding of node texts, for the tests of this package. */
final class TestSchema {
  private TestSchema() {}

  static final int DIM = 64;

  static SchemaGraph.Table table(String name, String description, String... cols) {
    List<SchemaGraph.Column> out = new ArrayList<>();
    for (String c : cols) {
      String[] nt = c.split(":");
      out.add(new SchemaGraph.Column(nt[0], nt[1], null));
    }
    return new SchemaGraph.Table(name, description, out);
  }

  static List<SchemaGraph.Table> tables() {
    return List.of(
        table("kgrag.runs", "one row per job stage run", "run_id:string", "stage:string", "started_at:timestamp", "duration_ms:bigint", "status:string"),
        table("kgrag.answers", "the answer to each question of a run", "run_id:string", "method:string", "dataset:string", "qid:string",
            "answer:string", "status:string", "latency_ms:double"),
        table("kgrag.questions", "questions read by kgrag qa", "dataset:string", "qid:string", "question:string"),
        table("kgrag.evidence", "graph edges that support each answer", "run_id:string", "method:string", "dataset:string", "qid:string",
            "src:bigint", "relation:string", "dst:bigint"),
        table("kgrag.entities", "nodes of the knowledge graph", "entity_id:bigint", "key:string", "label:string", "description:string"),
        table("kgrag.llm_cache", "cached llm replies", "model:string", "response:string"));
  }

  static SchemaGraph.Keys keys() {
    return SchemaGraph.Keys.parse(List.of(
        "# kgrag's joins",
        "key run_id",
        "key qid",
        "key dataset",
        "key method",
        "key entity_id   # entities and embeddings",
        "",
        "alias kgrag.evidence.src kgrag.entities.entity_id",
        "alias kgrag.evidence.dst kgrag.entities.entity_id",
        "alias kgrag.relations.src_id kgrag.entities.entity_id"));
  }

  static SchemaGraph schema() {
    return SchemaGraph.of(tables(), keys());
  }

  /** Each word (letters and digits) hashed to a dimension; L2-normalised. Deterministic. */
  static float[] embed(String text) {
    float[] v = new float[DIM];
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty()) {
        v[Math.floorMod(w.hashCode(), DIM)] += 1;
      }
    }
    double n = 0;
    for (float f : v) {
      n += f * f;
    }
    if (n > 0) {
      for (int i = 0; i < DIM; i++) {
        v[i] /= (float) Math.sqrt(n);
      }
    }
    return v;
  }

  static float[][] vectors(SchemaGraph g) {
    float[][] out = new float[g.nodeCount()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = embed(g.text(i));
    }
    return out;
  }
}
