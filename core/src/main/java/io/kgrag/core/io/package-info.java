/**
 * Byte helpers: {@link io.kgrag.core.io.ByteChunks} keeps a serialised object as a list of bounded arrays, so
 * one larger than a Java array or a Parquet value can be stored and read back (the sharded label index). Used by
 * batch-jobs' broadcast of QA contexts.
 */
package io.kgrag.core.io;
