/**
 * Stage {@code embed} ({@link io.kgrag.jobs.internal.stage.embed.Embed}): entity and relation label embeddings on
 * the executors, only for new or changed labels ({@link io.kgrag.jobs.internal.stage.embed.EmbedStage}), and the
 * sharded HNSW label index over them ({@link io.kgrag.jobs.internal.stage.embed.LabelIndexTable}).
 */
package io.kgrag.jobs.internal.stage.embed;
