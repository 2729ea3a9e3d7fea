/**
 * Reading input files on Spark: {@link io.kgrag.udfs.io.InputPaths} resolves a file, directory or glob on any
 * Hadoop file system into the files to read, and {@link io.kgrag.udfs.io.NumberedLines} reads them as undecoded
 * lines with exact 1-based line numbers, so bad encodings are rejected, not replaced. Used by batch-jobs'
 * ingest stages and question input.
 */
package io.kgrag.udfs.io;
