package io.kgrag.core.srag;

import java.io.Serializable;

/**
 * Settings of an SRAG run.
 *
 * @param maxEntities a larger entity set is refused (its table would not be a question's table)
 * @param sampleRows rows of the table shown to the LLM that writes SQL (the paper: "data samples")
 * @param maxResultRows a query result with more rows is cut there (the answer says so)
 * @param evidenceEdges edges of the table kept as a question's evidence
 * @param sql the embedded SQL's statistics settings
 */
public record SragConfig(int maxEntities, int sampleRows, int maxResultRows, int evidenceEdges, SqlBuilder.Config sql) implements Serializable {
  public static final SragConfig DEFAULT = new SragConfig(10_000, 5, 1_000, 1_000, SqlBuilder.Config.DEFAULT);

  public SragConfig {
    if (maxEntities < 1) {
      throw new IllegalArgumentException("max-entities must be at least 1, got " + maxEntities);
    }
    if (sampleRows < 0) {
      throw new IllegalArgumentException("sample-rows must be at least 0, got " + sampleRows);
    }
    if (maxResultRows < 1) {
      throw new IllegalArgumentException("max-result-rows must be at least 1, got " + maxResultRows);
    }
    if (evidenceEdges < 0) {
      throw new IllegalArgumentException("evidence-edges must be at least 0, got " + evidenceEdges);
    }
  }
}
