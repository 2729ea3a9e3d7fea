package io.kgrag.jobs.internal.method.srag;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.srag.SqlBuilder;
import io.kgrag.core.srag.SragConfig;

/**
 * SRAG's settings, {@code spark.kgrag.srag.*} (defaults {@link SragConfig#DEFAULT}): the largest entity set a
 * question's table may hold, the rows of it shown to an LLM that writes SQL, the result rows kept, the table's
 * edges kept as evidence, and the embedded SQL's statistics: |r| at which two measures are linearly related and
 * the Jarque–Bera statistic below which a sample follows a normal distribution.
 */
public record SragOptions(
    int maxEntities, int sampleRows, int maxResultRows, int evidenceEdges, double correlationThreshold, double normalityCritical) {
  public SragOptions {
    check(maxEntities >= 1, "maxEntities", "must be at least 1");
    check(sampleRows >= 0, "sampleRows", "must be at least 0");
    check(maxResultRows >= 1, "maxResultRows", "must be at least 1");
    check(evidenceEdges >= 0, "evidenceEdges", "must be at least 0");
    check(correlationThreshold > 0 && correlationThreshold < 1, "correlationThreshold", "must be in (0, 1)");
    check(normalityCritical > 0 && Double.isFinite(normalityCritical), "normalityCritical", "must be a finite number > 0");
    new SqlBuilder.Config(correlationThreshold, normalityCritical); // the statistics' own checks
  }

  public static SragOptions defaults() {
    SragConfig d = SragConfig.DEFAULT;
    return new SragOptions(d.maxEntities(), d.sampleRows(), d.maxResultRows(), d.evidenceEdges(), d.sql().correlationThreshold(), d.sql().normalityCritical());
  }

  /** The run's configuration. */
  public SragConfig config() {
    return new SragConfig(maxEntities, sampleRows, maxResultRows, evidenceEdges, new SqlBuilder.Config(correlationThreshold, normalityCritical));
  }
}
