/**
 * Text embeddings for labels and questions: the {@link io.kgrag.core.embed.Embedder} interface (L2-normalised
 * vectors, one embedder per partition), described serialisably by an {@link io.kgrag.core.embed.EmbedderSpec}
 * that opens the offline ONNX default ({@link io.kgrag.core.embed.OnnxEmbedder}, all-MiniLM-L6-v2 on the
 * classpath) or an OpenAI-compatible endpoint ({@link io.kgrag.core.embed.OpenAiEmbedder}); {@link
 * io.kgrag.core.embed.EmbeddingCache} keeps a task's repeated texts. Used by udfs' {@code EmbedPartitions} and
 * by batch-jobs' embed stage and QA methods.
 */
package io.kgrag.core.embed;
