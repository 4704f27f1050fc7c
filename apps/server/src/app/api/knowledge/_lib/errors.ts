// The knowledge routes' error mapping lives with the server's, where upload jobs use it too.
export { knowledgeErrors } from '../../../../server/knowledge-errors';
