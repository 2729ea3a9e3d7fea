/**
 * Embedding on the executors: {@link io.kgrag.udfs.embed.EmbedPartitions} embeds a text column with one {@link
 * io.kgrag.core.embed.Embedder} per partition, in batches. Used by batch-jobs' embed stage.
 */
package io.kgrag.udfs.embed;
