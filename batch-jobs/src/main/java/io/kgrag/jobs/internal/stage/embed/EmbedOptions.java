package io.kgrag.jobs.internal.stage.embed;

import static io.kgrag.jobs.conf.OptionsBinder.check;

/** The label index's settings, {@code spark.kgrag.label-index.*}: labels per shard (default 100,000). */
public record EmbedOptions(int shardSize) {
  public EmbedOptions {
    check(shardSize >= 1, "shardSize", "must be at least 1");
  }

  public static EmbedOptions defaults() {
    return new EmbedOptions(EmbedStage.DEFAULT_LABEL_INDEX_SHARD_SIZE);
  }
}
