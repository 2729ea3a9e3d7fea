/**
 * The command line ({@code kgrag <command>}, picocli): one class per command over the jobs of {@code
 * io.kgrag.jobs.internal}. It names no retrieval method and no index stage of its own: methods come from {@link
 * io.kgrag.jobs.internal.qa.Methods}, stages from {@link io.kgrag.jobs.internal.pipeline.Pipeline}. A bad option or
 * input exits 2 with one line; nothing is written.
 */
package io.kgrag.jobs.cli;
