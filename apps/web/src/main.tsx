import { boot } from './boot.tsx';
import { shareStyleNonce } from './lib/csp-nonce.ts';
import { tolerateTranslatedText } from './lib/translated-dom.ts';
import './ui/global.css';

shareStyleNonce();
tolerateTranslatedText();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
void boot(container);
