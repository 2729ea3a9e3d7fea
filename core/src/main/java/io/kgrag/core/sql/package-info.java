/**
 * SQL as text, shared by the methods that let a model write SQL (QAFD-RAG's text-to-SQL, SRAG): the SQL of a
 * model's reply and its statements, for the read-only checks before anything runs.
 */
package io.kgrag.core.sql;
