/**
 * The dense method ({@code kgrag qa --method dense}): loads the chunk embeddings the embed stage stored for a text
 * corpus and ships {@link io.kgrag.core.dense.DenseContext}, the passage baseline graph retrieval is measured against.
 */
package io.kgrag.jobs.internal.method.dense;
