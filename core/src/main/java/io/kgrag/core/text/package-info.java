/**
 * Text corpora as graph input: {@link io.kgrag.core.text.DocumentReader} reads a corpus file in a {@link
 * io.kgrag.core.text.DocumentFormat} into {@link io.kgrag.core.text.Document}s, every unusable record a {@link
 * io.kgrag.core.text.DocumentReject}; {@link io.kgrag.core.text.Chunker} packs whole sentences into overlapping
 * {@link io.kgrag.core.text.Chunk}s; and {@link io.kgrag.core.text.TextGraph} turns what an extractor read
 * (subpackage {@code extract}) into graph keys and merges an entity's mentions into one node. Used by
 * batch-jobs' document ingest stage.
 */
package io.kgrag.core.text;
